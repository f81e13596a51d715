# hoflow test suite: expressions in options (hoflow/expr.h over muparser), through the small driver
# build/tests/test_expr. exec()'d by tests/run.py into its globals (test, run, check, Failure, ROOT).
# Values are compared with Python's to 1e-14 relative; errors must name the option, quote the
# expression and give the position (syntax, unknown name) or the point (a value that is not finite).
TEST_EXPR = os.path.join(ROOT, "build", "tests", "test_expr")


def expr_values(args):
    _, out = run([TEST_EXPR] + args)
    flags = re.search(r"^time (\d) space (\d)$", out, re.M)
    check(flags, "no dependence line:\n" + out)
    return [float(v) for v in re.findall(r"^value (\S+)$", out, re.M)], (flags.group(1) == "1", flags.group(2) == "1")


def expr_error(args):
    code, out = run([TEST_EXPR] + args, expect_ok=False)
    check(code != 0, "expected an error from %s, got:\n%s" % (" ".join(args), out))
    return out


@test("expr/values")
def _():
    # the parabolic channel inflow of the cylinder benchmark with chained constants, at three points
    pts = [(0.0, 0.0), (0.3, 0.205), (0.0, 0.41)]
    vals, dep = expr_values(["-e", "4*Um*y*(H-y)/H^2", "-const", "Um=1.5, H=0.41", "-x", ",".join("%g,%g" % p for p in pts)])
    ref = [4 * 1.5 * y * (0.41 - y) / 0.41 ** 2 for _, y in pts]
    check(len(vals) == 3 and all(abs(v - r) <= 1e-14 * max(1, abs(r)) for v, r in zip(vals, ref)), "values %s, expected %s" % (vals, ref))
    check(dep == (False, True), "dependence (time, space) %s, expected (False, True)" % (dep,))
    # constants using earlier ones (commas inside parentheses stay in the item), time, 3D, functions, pi
    vals, dep = expr_values(["-e", "U*sin(pi*x)*exp(-t)+z^2", "-const", "a=2, U=max(a,3)/2", "-dim", "3", "-x", "0.5,0,2", "-t", "1"])
    ref = 1.5 * math.sin(math.pi * 0.5) * math.exp(-1) + 4
    check(abs(vals[0] - ref) <= 1e-14 * ref and dep == (True, True), "value %s (expected %r), dependence %s" % (vals, ref, dep))
    vals, dep = expr_values(["-e", "2.5", "-x", "1,1"])
    check(vals == [2.5] and dep == (False, False), "constant expression: %s %s" % (vals, dep))
    return "parabolic profile to 1e-14, chained constants, 3D with t, constant flags"


@test("expr/errors")
def _():
    out = expr_error(["-e", "4*Um*q", "-const", "Um=1", "-x", "0,0"])
    check(re.search(r"-e: cannot evaluate the expression \"4\*Um\*q\".*position 5", out) and "^" in out, "unknown name: no option/position:\n" + out[-800:])
    out = expr_error(["-e", "3*(x+", "-x", "0,0"])
    check(re.search(r"-e: cannot evaluate the expression \"3\*\(x\+\"", out) and "position" in out, "syntax error: no message:\n" + out[-800:])
    out = expr_error(["-e", "1/(x-0.5)", "-x", "0,0,0.5,0.25"])
    check(re.search(r"-e: the expression \"1/\(x-0\.5\)\" is not finite \(inf\.?\) at x = \(0\.5, 0\.25, 0\.?\)", out), "division by zero: no point:\n" + out[-800:])
    out = expr_error(["-e", "x", "-const", "Um 1.5, 2H=3", "-x", "0,0"])
    check(re.search(r"-const: \"2H\" is not a name", out), "bad constant name:\n" + out[-800:])
    out = expr_error(["-e", "x", "-const", "a=1,b=c", "-x", "0,0"])
    check(re.search(r"-const b: cannot evaluate the expression \"c\"", out), "unknown name in -const:\n" + out[-800:])
    out = expr_error(["-e", "x", "-const", "t=1", "-x", "0,0"])
    check(re.search(r"-const: t is a variable", out), "variable as a constant name:\n" + out[-800:])
    return "unknown name, syntax, division by zero at a point, bad -const items"
