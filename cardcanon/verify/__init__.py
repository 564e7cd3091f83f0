"""``cardcanon verify``: the runner of the checks of ``proofs/`` and their evidence.

- :mod:`~cardcanon.verify.manifest`: the manifests (``proofs/manifest/*.toml``), read and checked;
- :mod:`~cardcanon.verify.variants`: the variants every check runs under;
- :mod:`~cardcanon.verify.plan`: what to run (checks x variants, probes, model mutants) and the command;
- :mod:`~cardcanon.verify.runner`: each run in a worker process under a deadline;
- :mod:`~cardcanon.verify.records`: the replay of the records the checks return;
- :mod:`~cardcanon.verify.model_mutants`: the model mutants of the necessity matrix;
- :mod:`~cardcanon.verify.engine`: the compiled engine's checks and its replay of records;
- :mod:`~cardcanon.verify.report`: the outcomes, the table and the JSON report;
- :mod:`~cardcanon.verify.scope`: what each check covers, against the rulebook's range;
- :mod:`~cardcanon.verify.smt_check`: `cardcanon smt-check`, exported queries decided again by cvc5.
"""

from cardcanon.verify.manifest import CheckSpec
from cardcanon.verify.plan import DEFAULT_TIMEOUT, Progress, add_parser, combinations, default_jobs, load_checks, run
from cardcanon.verify.report import Report

__all__ = ["DEFAULT_TIMEOUT", "CheckSpec", "Progress", "Report", "add_parser", "combinations", "default_jobs", "load_checks",
           "run"]
