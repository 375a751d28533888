#!/bin/sh
# hookrun policy notify: a desktop notification when the agent finishes or wants your attention.
# Uses notify-send (Linux) or osascript (macOS); does nothing where neither exists.
case $HOOKRUN_EVENT in
  agent:stop) message="The agent has finished." ;;
  *) message=$(sed -n 's/.*"message" *: *"\([^"]*\)".*/\1/p' | head -n 1)
     message=${message:-"The agent needs your attention."} ;;
esac
if command -v notify-send >/dev/null 2>&1; then
  notify-send "Coding agent" "$message"
elif command -v osascript >/dev/null 2>&1; then
  osascript -e 'on run argv' -e 'display notification (item 1 of argv) with title "Coding agent"' -e 'end run' "$message"
fi
exit 0
