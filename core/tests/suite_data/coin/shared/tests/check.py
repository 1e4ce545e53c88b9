import sys
from pathlib import Path

ok = Path("answer.txt").is_file() and Path("answer.txt").read_text().strip() == "42"
failure = "" if ok else '<failure message="answer.txt is not 42"/>'
Path(sys.argv[1]).write_text(
    '<testsuite name="coin" tests="1" failures="%d"><testcase classname="check" name="answer">%s'
    "</testcase></testsuite>" % (0 if ok else 1, failure)
)
sys.exit(0 if ok else 1)
