"""A stand-in model CLI for the ``cli`` adapter's tests: reads the prompt on stdin, answers on stdout.

Answers like the fakes' script: ``You said: <latest>. Before that you said: <earlier>.``,
where the user texts come from the adapter's transcript (``User: ...`` lines), or
the whole prompt when it is the input alone. The reply is written in pieces,
flushed, so a streaming reader sees it arrive. ``!fail`` as the latest input
exits with status 3 and a message on stderr. ``--model`` is echoed back.
"""

from __future__ import annotations

import sys
import time


def main() -> int:
    prompt = sys.stdin.read()
    lines = [line.removeprefix("User: ") for line in prompt.splitlines() if line.startswith("User: ")]
    user_texts = lines or [prompt.strip()]
    latest = user_texts[-1]
    if latest == "!fail":
        print("model crashed: out of memory", file=sys.stderr)
        return 3
    earlier = " | ".join(user_texts[:-1]) or "nothing"
    reply = f"You said: {latest}. Before that you said: {earlier}."
    if "--model" in sys.argv:
        reply += f" (model {sys.argv[sys.argv.index('--model') + 1]})"
    for start in range(0, len(reply), 16):
        sys.stdout.write(reply[start : start + 16])
        sys.stdout.flush()
        time.sleep(0.005)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
