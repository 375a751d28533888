#!/bin/sh
# Install the prebuilt hookrun binary for this machine.
#
#   curl -fsSL https://github.com/hookrun/hookrun/releases/latest/download/install.sh | sh
#   sh install.sh --version 0.1.0
#
# It picks the binary for this OS, CPU and C library, downloads its archive (hookrun-<target>.tar.gz)
# with the release's SHA256SUMS, refuses to unpack or install anything if the archive's checksum
# does not match, puts `hookrun` in
# ${HOOKRUN_INSTALL_DIR:-$HOME/.local/bin}, never edits shell start-up files (it prints the line to
# add when that folder is not on PATH) and ends by running `hookrun --version`.
#
# Environment:
#   HOOKRUN_INSTALL_DIR   where to install (default: $HOME/.local/bin)
#   HOOKRUN_VERSION       the version to install, like --version (default: the latest release)
#   HOOKRUN_DOWNLOAD_URL  the folder that holds a release's files (archives and SHA256SUMS); for
#                         mirrors and tests. Default: the GitHub release of the chosen version.
set -eu

RELEASES=https://github.com/hookrun/hookrun/releases

usage() {
	cat <<EOF
Install hookrun, one hook runner for every coding agent.

usage: install.sh [--version X.Y.Z]

  --version X.Y.Z   install this release instead of the latest
  -h, --help        show this help

Environment: HOOKRUN_INSTALL_DIR (default \$HOME/.local/bin), HOOKRUN_VERSION,
HOOKRUN_DOWNLOAD_URL (a mirror: the folder that holds the .tar.gz archives and SHA256SUMS).
EOF
}

fail() {
	printf 'hookrun install: %s\n' "$*" >&2
	exit 1
}

# The release target for this machine: <os>-<arch>[-musl][-baseline], Bun's target names.
detect_target() {
	os=$(uname -s)
	arch=$(uname -m)
	case $os in
		Linux) os=linux ;;
		Darwin) os=darwin ;;
		MINGW* | MSYS* | CYGWIN* | Windows_NT)
			fail "this script installs on Linux and macOS; on Windows download hookrun-windows-x64.exe from $RELEASES, or run 'npm install -g hookrun' (Node 20+)" ;;
		*)
			fail "no prebuilt hookrun for $os ($arch): binaries exist for Linux and macOS on x64 and arm64; elsewhere run 'npm install -g hookrun' (Node 20+)" ;;
	esac
	case $arch in
		x86_64 | amd64) arch=x64 ;;
		aarch64 | arm64) arch=arm64 ;;
		*)
			fail "no prebuilt hookrun for $os on $arch: binaries exist for x64 and arm64; elsewhere run 'npm install -g hookrun' (Node 20+)" ;;
	esac
	# An x64 shell under Rosetta on Apple silicon: the native binary is the faster one.
	if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
		arch=arm64
	fi
	target=$os-$arch
	if [ "$os" = linux ]; then
		if is_musl; then target=$target-musl; fi
		# The default x64 build needs AVX2 ("Illegal instruction" without it).
		if [ "$arch" = x64 ] && ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then target=$target-baseline; fi
	fi
	printf '%s\n' "$target"
}

is_musl() {
	[ -f /etc/alpine-release ] && return 0
	command -v ldd >/dev/null 2>&1 && ldd --version 2>&1 | grep -qi musl && return 0
	return 1
}

download() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL --retry 2 -o "$2" "$1" || fail "could not download $1"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -O "$2" "$1" || fail "could not download $1"
	else
		fail "needs curl or wget to download $1"
	fi
}

sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d ' ' -f 1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d ' ' -f 1
	else
		fail "needs sha256sum or shasum to check the download"
	fi
}

# Print the shell line that puts $1 on PATH, for the user's shell; change nothing.
path_hint() {
	case ":${PATH:-}:" in
		*":$1:"*) return 0 ;;
	esac
	# shellcheck disable=SC2088 # the ~ is shown to the user, not expanded
	case $(basename "${SHELL:-sh}") in
		zsh) rc='~/.zshrc' line="export PATH=\"$1:\$PATH\"" ;;
		bash) rc='~/.bashrc' line="export PATH=\"$1:\$PATH\"" ;;
		fish) rc='~/.config/fish/config.fish' line="fish_add_path \"$1\"" ;;
		*) rc='~/.profile' line="export PATH=\"$1:\$PATH\"" ;;
	esac
	printf '\n%s is not on your PATH. To run hookrun by name, add this line to %s:\n\n  %s\n\n' "$1" "$rc" "$line"
}

main() {
	version=${HOOKRUN_VERSION:-}
	while [ $# -gt 0 ]; do
		case $1 in
			--version)
				[ $# -ge 2 ] || fail "--version needs a value, like --version 0.1.0"
				version=$2
				shift 2 ;;
			--version=*) version=${1#--version=}; shift ;;
			-h | --help) usage; exit 0 ;;
			*) fail "unknown option '$1'; run with --help" ;;
		esac
	done
	version=${version#v}

	target=$(detect_target)
	asset=hookrun-$target.tar.gz
	for tool in gzip tar; do
		command -v "$tool" >/dev/null 2>&1 || fail "needs $tool to unpack $asset"
	done
	if [ -n "${HOOKRUN_DOWNLOAD_URL:-}" ]; then
		base=${HOOKRUN_DOWNLOAD_URL%/}
	elif [ -n "$version" ]; then
		base=$RELEASES/download/v$version
	else
		base=$RELEASES/latest/download
	fi
	dir=${HOOKRUN_INSTALL_DIR:-${HOME:?HOME is not set; set HOOKRUN_INSTALL_DIR}/.local/bin}

	tmp=$(mktemp -d 2>/dev/null || mktemp -d -t hookrun)
	partial=
	trap 'rm -rf "$tmp"; [ -z "$partial" ] || rm -f "$partial"' EXIT
	trap 'exit 1' HUP INT TERM

	printf 'Downloading %s from %s\n' "$asset" "$base"
	download "$base/SHA256SUMS" "$tmp/SHA256SUMS"
	download "$base/$asset" "$tmp/$asset"

	expected=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1; exit }' "$tmp/SHA256SUMS")
	[ -n "$expected" ] || fail "$base/SHA256SUMS lists no $asset; nothing was installed"
	actual=$(sha256 "$tmp/$asset")
	[ "$actual" = "$expected" ] ||
		fail "checksum mismatch for $asset (expected $expected, got $actual): the download is corrupt or was tampered with; nothing was installed"
	# Only now unpack, and only the one file the archive is for.
	mkdir "$tmp/unpacked"
	gzip -dc "$tmp/$asset" | (cd "$tmp/unpacked" && tar -xf - hookrun) && [ -f "$tmp/unpacked/hookrun" ] ||
		fail "could not unpack hookrun from $asset; nothing was installed"

	mkdir -p "$dir" || fail "cannot create $dir; set HOOKRUN_INSTALL_DIR to a folder you can write"
	# Copy beside the target and try it there (a noexec /tmp must not matter), then rename: an
	# existing hookrun is replaced in one step, never left half-written.
	partial=$dir/.hookrun.partial.$$
	cp "$tmp/unpacked/hookrun" "$partial" || fail "cannot write to $dir; set HOOKRUN_INSTALL_DIR to a folder you can write"
	chmod 755 "$partial"
	reported=$("$partial" --version 2>&1) || fail "the hookrun in $asset does not run on this machine ($reported); nothing was installed"
	if [ -n "$version" ]; then
		case "$reported " in
			"hookrun $version ("*) ;;
			*) fail "$base serves '$reported', not hookrun $version; nothing was installed" ;;
		esac
	fi
	mv -f "$partial" "$dir/hookrun"
	partial=

	printf 'Installed %s\n' "$dir/hookrun"
	path_hint "$dir"
	"$dir/hookrun" --version
}

main "$@"
