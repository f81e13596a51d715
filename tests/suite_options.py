# hoflow test suite: the options files of options/ as a new user runs them. exec()'d by tests/run.py
# into its globals (test, run, check, summary, Failure, Skip, ROOT, HOFLOW, TEST_GPU, SQUARE).
# Every documented combination of options files must leave no unused option (PETSc's -options_left:
# an unused option is a spelling mistake or a setting that does nothing, and a warning that every
# run prints teaches users to ignore it); the default case (`make run`) must show the recommended
# solver. Runs are shrunk (low order, coarse mesh, one or two steps) by options given after the files.

# The options files by role. Cases set a problem; stacks set the elliptic solver; gpu.yaml the backend.
OPTION_CASES = ("default", "heat", "helmholtz", "poisson_quad", "screened_poisson", "square_cylinder", "taylor_vortex")
OPTION_STACKS = ("jacobi", "inverse_mass", "pmg_amg", "pmg_gamg", "amg", "lor_amg")

# What makes each case tiny. Only options that the case reads anyway (or overrides of its own), so
# the shrinking neither adds an unused option nor hides one.
UNSTEADY_TINY = ["-output_interval", "0", "-checkpoint_interval", "0", "-progress_interval", "-1", "-monitor_file", "none"]
OPTION_TINY = {
    "default": ["-order", "2", "-dm_refine", "0"],
    "heat": ["-order", "2", "-dm_refine", "0", "-ts_max_steps", "2"] + UNSTEADY_TINY,
    "helmholtz": ["-order", "2", "-dm_refine", "0"],
    "poisson_quad": ["-order", "2", "-dm_plex_box_faces", "4,4"],
    "screened_poisson": ["-order", "2", "-dm_refine", "0"],
    # order 2: a p-multigrid of two levels (orders 2, 1), so the coarse-level options are exercised
    "square_cylinder": ["-order", "2", "-ts_max_steps", "1"] + UNSTEADY_TINY,
    "taylor_vortex": ["-order", "2", "-ts_max_steps", "1"] + UNSTEADY_TINY,
}


def options_left(args):
    """Run hoflow with -options_left; return the names of the unused options (and the summary line)."""
    _, out = run([HOFLOW] + args + ["-options_left"])
    check(re.search(r"^There (are|is) .*unused.*option|^There are no unused options", out, re.M), "no -options_left report in the output of %s:\n%s" % (" ".join(args), out[-1500:]))
    left = re.findall(r"^Option left: name:(-\S+)", out, re.M)
    return left, summary(out)


def options_left_test(combos):
    """combos: list of (label, args). Every combination runs and leaves no option unused."""
    def f():
        bad, labels = [], []
        for label, args in combos():
            left, _ = options_left(args)
            if left:
                bad.append("%s: %s" % (label, " ".join(left)))
            labels.append(label)
        check(not bad, "unused options (-options_left):\n" + "\n".join(bad))
        return "%d combinations, none leaves an option: %s" % (len(labels), ", ".join(labels))
    return f


def case_combos():
    return [(c, ["-options_file", "options/%s.yaml" % c] + OPTION_TINY[c]) for c in OPTION_CASES]


def stack_combos():
    # a stack alone (on hoflow's built-in Poisson problem) and after the default case
    out = []
    for s in OPTION_STACKS:
        out.append((s, ["-options_file", "options/%s.yaml" % s, "-order", "2"]))
        out.append(("default+" + s, ["-options_file", "options/default.yaml", "-options_file", "options/%s.yaml" % s] + OPTION_TINY["default"]))
    return out


def gpu_options_file(tmp):
    """options/gpu.yaml as it is on a CUDA build; on a CPU build (which refuses -dm_vec_type cuda, see
    errors/cuda-vectors-without-cuda-build) a copy without that one line, so that the rest of the file,
    the settings that must apply wherever read, is checked here."""
    _, out = run([TEST_GPU, "-order", "1", "-dm_plex_box_faces", "2,2"])
    if "SKIPPED" not in out:
        return "options/gpu.yaml", "gpu"
    lines = open(os.path.join(ROOT, "options", "gpu.yaml")).read().splitlines()
    keep = [l for l in lines if not re.match(r"\s*dm_vec_type\s*:", l)]
    check(len(keep) == len(lines) - 1, "options/gpu.yaml should set dm_vec_type exactly once")
    path = os.path.join(tmp, "gpu_without_dm_vec_type.yaml")
    with open(path, "w") as fh:
        fh.write("\n".join(keep) + "\n")
    return path, "gpu-minus-dm_vec_type"


@test("options/no-unused/cases")
def _():
    return options_left_test(case_combos)()


@test("options/no-unused/stacks")
def _():
    return options_left_test(stack_combos)()


@test("options/no-unused/cases+gpu")
def _():
    with tempfile.TemporaryDirectory() as tmp:
        gpu, name = gpu_options_file(tmp)
        combos = lambda: [(c + "+" + name, ["-options_file", "options/%s.yaml" % c, "-options_file", gpu] + OPTION_TINY[c]) for c in OPTION_CASES]
        return options_left_test(combos)()


@test("options/default-case/make-run")
def _():
    # `make run` (the README's first command) runs options/default.yaml with the recommended solver:
    # CG + pMG-AMG in a few iterations (CG + point Jacobi, the old default, needed about 350); the
    # README's example summary line is what it prints
    _, plan = run(["make", "-s", "-n", "run"])
    cmds = [l.split() for l in plan.splitlines() if l.startswith("./hoflow")]
    check(len(cmds) == 1 and "options/default.yaml" in cmds[0], "`make run` should run ./hoflow -options_file options/default.yaml, plans:\n" + plan[-1000:])
    s = summary(run(cmds[0])[1])
    check(s["reason"] == "CONVERGED_RTOL", "default case: %s" % s["reason"])
    check(s["iterations"] <= 30, "default case took %d CG iterations (bound 30): not the recommended pMG-AMG?" % s["iterations"])
    check(float(s["pc_bytes_per_cell"]) > 0, "default case: no preconditioner memory (a pMG hierarchy holds some kB per element): %s" % s)
    j = summary(run(cmds[0] + ["-options_file", "options/jacobi.yaml"])[1])
    check(abs(s["L2"] - j["L2"]) <= 1e-5 * j["L2"], "default case L2 %g differs from CG + Jacobi's %g" % (s["L2"], j["L2"]))
    readme = open(os.path.join(ROOT, "README.md")).read()
    m = re.search(r"`make run` solves the default case.*?^(hoflow: .*)$", readme, re.M | re.S)
    check(m, "README.md: no example summary line after '`make run` solves the default case'")
    r = summary(m.group(1))
    for k in ("problem", "order", "cells", "dofs", "reason"):
        check(r[k] == s[k], "README's example line has %s %s, the default case prints %s" % (k, r[k], s[k]))
    check(abs(r["iterations"] - s["iterations"]) <= 2, "README's example line has %d iterations, the default case takes %d" % (r["iterations"], s["iterations"]))
    check(abs(r["L2"] - s["L2"]) <= 1e-3 * s["L2"], "README's example line has L2 %g, the default case prints %g" % (r["L2"], s["L2"]))
    return "iterations %d (CG + Jacobi %d), L2 %.6e, %s B/element in the preconditioner" % (s["iterations"], j["iterations"], s["L2"], s["pc_bytes_per_cell"])
