#!/bin/sh
# hookrun policy package-installs: refuse adding packages the lockfile does not have (npm i X,
# yarn/pnpm/bun add X, pip install X, uv add X, poetry add X, cargo add X, go get X, gem install X,
# brew/apt install X …) unless the package is on your allow-list. Installing what the lockfile
# or requirements already pin (npm ci, npm install, pip install -r requirements.txt, uv sync,
# cargo build) passes. See policies/package-installs/README.md.
HR_POLICY=package-installs
cmd=${HOOKRUN_BASH_COMMAND-}
[ -n "$cmd" ] || exit 0
# hookrun:include lib/commands.sh
allowed=${HOOKRUN_ALLOWED_PACKAGES-}
list=${HOOKRUN_PROJECT_DIR:-.}/.hookrun/allowed-packages
[ -f "$list" ] && allowed="$allowed $(sed -e 's/#.*//' "$list" | tr '\n' ' ')"
allowed="$allowed pip setuptools wheel"
# bare SPEC: the package's name without its version, extras or tag.
bare() {
  _s=$1
  case $_s in
    @*/*) _s="@${_s#@}"; _r=${_s#@}; _s="@${_r%%@*}" ;;
    *) _s=${_s%%[@=<>~![;]*} ;;
  esac
  printf '%s' "$_s"
}
check_specs() { # MANAGER SPECS…
  _m=$1
  shift
  _skip=no
  for _w in "$@"; do
    [ "$_skip" = yes ] && { _skip=no; continue; }
    case $_w in
      -r | --requirement | -c | --constraint | -e | --editable | --index-url | -i | --extra-index-url | --target | -t | --prefix | --python | -p | --registry | --cwd | --workspace | -w | --filter | --save-prefix | --tag) _skip=yes; continue ;;
      -*) continue ;;
      . | ./* | ../* | /*) continue ;;
    esac
    _b=$(bare "$_w")
    [ -n "$_b" ] || continue
    _ok=no
    set -f
    for _a in $allowed; do
      # shellcheck disable=SC2254
      case $_b in $_a) _ok=yes ;; esac
    done
    [ "$_ok" = yes ] || hr_deny "refusing to install $_b with $_m: it is not in the lockfile; add it yourself, or allow it in .hookrun/allowed-packages"
  done
}
check() {
  case $1 in R | I) return 0 ;; esac
  shift 2
  name=$1
  shift
  sub=${1-}
  case $name in
    python | python3 | python3.*) [ "${1-}" = -m ] && [ "${2-}" = pip ] && { shift 2; name=pip; sub=${1-}; } ;;
  esac
  case $name:$sub in
    npm:install | npm:i | npm:add | npm:isntall | npm:in | npm:ins | npm:inst | npm:insta | npm:instal | npm:install-test | pnpm:add | pnpm:install | pnpm:i | yarn:add | yarn:global | bun:add | bun:install | bun:i | bun:a | deno:add | deno:install)
      shift
      check_specs "$name" "$@" ;;
    pip:install | pip3:install | pipx:install | pipx:inject | uv:add | poetry:add | pdm:add | pipenv:install | conda:install | mamba:install | gem:install | cargo:add | cargo:install | composer:require | brew:install | apt:install | apt-get:install | dnf:install | yum:install | apk:add | pacman:-S | zypper:install | go:get | go:install | dotnet:add | mix:archive.install | nix-env:-i | nix-env:-iA | opam:install)
      shift
      [ "$name:${1-}" = "dotnet:package" ] && shift
      check_specs "$name" "$@" ;;
    uv:pip)
      [ "${2-}" = install ] && { shift 2; check_specs uv "$@"; } ;;
    npx:* | pnpx:* | bunx:*)
      # npx runs a package, fetching it when it is not installed: -y/--yes says yes to that.
      for _w in "$@"; do case $_w in -y | --yes | -p | --package | --package=*) hr_deny "refusing $name with a package it may fetch: $cmd (allow it in .hookrun/allowed-packages)" ;; esac; done ;;
  esac
  return 0
}
hr_each check "$cmd"
exit 0
