#!/bin/sh
# hookrun policy download-and-run: refuse running code fetched from the network (or decoded from
# base64) without a look first: curl … | sh, bash <(curl …), eval "$(curl …)", python3 -c
# "$(wget -O- …)", base64 -d | bash, irm … | iex, and curl -o x.sh … && sh x.sh in one command.
# See policies/download-and-run/README.md.
HR_POLICY=download-and-run
cmd=${HOOKRUN_BASH_COMMAND-}
[ -n "$cmd" ] || exit 0
# hookrun:include lib/commands.sh
# hookrun:include lib/download-run.sh
hr_each hr_download_run "$cmd"
exit 0
