#!/bin/sh
# Gate for tool:pre_execute:bash. hookrun puts the shell command in HOOKRUN_BASH_COMMAND
# (the full event JSON is on stdin). Exit 2 blocks; what we print on stderr is the reason.
case "$HOOKRUN_BASH_COMMAND" in
  *sudo*) echo "sudo is not allowed here: run the command without it" >&2; exit 2 ;;
esac
exit 0
