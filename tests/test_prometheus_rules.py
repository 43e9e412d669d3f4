"""Issue #33 item 4: the operator's alerting rules, ``deploy/prometheus/alerts.yml``.

Debian's ``promtool`` (package ``prometheus``; ``.ci/run`` installs it) checks the rules and
the example configuration, and runs the rules' unit tests, ``alerts_test.yml``: each alert
fires on series just past its threshold and stays quiet on series just short of it. That
those tests have teeth is checked here by breaking each rule — its threshold moved one way,
then the other, a matcher dropped — and seeing its own tests fail, nothing else changed.

Without promtool these tests are skipped (said why); the series the rules name are checked
against the bot's meter either way.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from handlers.delivery import OUTCOMES
from kozelbot.core.metrics import PRESS_KINDS, PrometheusMeter

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy" / "prometheus"
RULES = DEPLOY / "alerts.yml"
UNIT_TESTS = DEPLOY / "alerts_test.yml"

ALERTS = re.findall(r"^ *- alert: (\w+)$", RULES.read_text(encoding="utf-8"), re.MULTILINE)

MUTATIONS: list[tuple[str, str, str, str]] = [
    # (alert, text in its rule, what it becomes, the unit test that catches it): made too
    # eager, a quiet case fires; made too lax, a firing case stays quiet.
    ("KozelBotDown", "== 0", ">= 0", "one failed scrape is not a bot down"),
    ("KozelBotDown", "for: 1m", "for: 0m", "one failed scrape is not a bot down"),
    ("KozelBotDown", "== 0", "== -1", "a bot down for good is down"),
    ("KozelUpdatesSilent", "> 120", "> 60", "a long poll that answered 90 s ago"),
    ("KozelUpdatesSilent", "> 120", "> 600", "a long poll silent for minutes"),
    ("KozelBotApiRateLimited", "> 0", ">= 0", "one 429 now and then"),
    ("KozelBotApiRateLimited", "for: 5m", "for: 1m", "one 429 now and then"),
    ("KozelBotApiRateLimited", "> 0", "> 10", "a 429 every 15 s for minutes"),
    ("KozelBotApiErrors", "> 0.1", "> 0.05", "eight calls in a hundred refused"),
    ("KozelBotApiErrors", "> 0.05", "> 0.01", "half of two calls a minute failing"),
    ("KozelBotApiErrors", "> 0.1", "> 0.2", "fifteen calls in a hundred failing"),
    ("KozelOutboxStuck", "> 300", "> 30", "posts sent four minutes late"),
    ("KozelOutboxStuck", "> 300", "> 900", "a post owed for ever more minutes"),
    ("KozelCardPressSlow", ") > 2", ") > 0.5", "card presses answered within a second"),
    ("KozelCardPressSlow", '{kind="card"}', "", "whatever other presses take"),
    ("KozelCardPressSlow", ") > 2", ") > 5", "one card press in ten waiting over 2.5 s"),
    ("KozelDecisionsOverBudget", ") > 0.1", ") > 0.02", "one decision in twenty"),
    ("KozelDecisionsOverBudget", ") > 0.1", ") > 0.3", "a fifth of decisions"),
    (
        "KozelDecisionsOverBudget",
        'le=~"1(\\\\.0)?"',
        'le="1.0"',
        'as Prometheus 3 names it (le="1")',
    ),
    ("KozelDatabaseSlow", ") > 1", ") > 0.5", "transactions within a second"),
    ("KozelDatabaseSlow", ") > 1", ") > 4", "three transactions in a hundred over a second"),
]


@pytest.fixture
def promtool() -> str:
    """Debian's promtool, or the test is skipped (only ever where it is not installed)."""
    found = shutil.which("promtool")
    if found is None:
        pytest.skip("promtool is missing: apt-get install prometheus (.ci/run does)")
    return found


def run(promtool: str, *argv: str | Path) -> tuple[bool, str]:
    """Whether ``promtool argv`` succeeded, and what it said."""
    done = subprocess.run(
        [promtool, *map(str, argv)], capture_output=True, text=True, timeout=60, check=False
    )
    return done.returncode == 0, done.stdout + done.stderr


def rules_text() -> str:
    """``alerts.yml`` as written."""
    return RULES.read_text(encoding="utf-8")


def rule_block(text: str, alert: str) -> tuple[int, int]:
    """Where ``alert``'s rule starts and ends in the rules file's ``text`` (it ends where
    the next rule, its comment or the next group starts)."""
    start = text.index(f"- alert: {alert}\n")
    after = re.compile(r"\n *(#|- alert: |- name: )").search(text, start + 1)
    return start, after.start() if after else len(text)


def unit_tests_of(alert: str) -> str:
    """``alerts_test.yml`` with only the test groups that look at ``alert``."""
    text = UNIT_TESTS.read_text(encoding="utf-8")
    head, body = text.split("\ntests:\n", 1)
    groups = re.split(r"\n(?=  - name: )", body)
    kept = [g for g in groups if f"alertname: {alert}\n" in g]
    return head + "\ntests:\n" + "\n".join(kept) + "\n"


def test_the_rules_pass_promtool_check_rules(promtool: str) -> None:
    ok, said = run(promtool, "check", "rules", RULES)
    assert ok, said
    assert f"SUCCESS: {len(ALERTS)} rules found" in said


def test_the_example_configuration_passes_promtool_check_config(promtool: str) -> None:
    """The example scrapes the bot as job ``kozelbot`` (what the rules select) and loads
    ``alerts.yml`` from beside it."""
    ok, said = run(promtool, "check", "config", DEPLOY / "prometheus.yml")
    assert ok, said
    assert "SUCCESS: 1 rule files found" in said
    config = (DEPLOY / "prometheus.yml").read_text(encoding="utf-8")
    assert "job_name: kozelbot" in config and '"127.0.0.1:9464"' in config


def test_every_alert_passes_its_unit_tests(promtool: str) -> None:
    ok, said = run(promtool, "test", "rules", UNIT_TESTS)
    assert ok, said


def test_every_alert_is_tested_firing_and_quiet() -> None:
    text = UNIT_TESTS.read_text(encoding="utf-8")
    cases = re.findall(r"alertname: (\w+)\n *exp_alerts:( \[\])?", text)
    assert {alert for alert, _ in cases} == set(ALERTS)
    assert {alert for alert, quiet in cases if not quiet} == set(ALERTS)
    assert {alert for alert, quiet in cases if quiet} == set(ALERTS)


def test_every_alert_waits_and_says_how_bad_and_what_to_do() -> None:
    text = rules_text()
    assert len(set(ALERTS)) == len(ALERTS) >= 8
    for alert in ALERTS:
        block = text[slice(*rule_block(text, alert))]
        assert re.search(r"\n +for: [1-9]\d*m\n", block), alert
        assert re.search(r"\n +severity: (critical|warning)\n", block), alert
        assert "summary: " in block and "description: " in block, alert


def test_the_rules_select_series_the_bot_exports() -> None:
    """Every ``kozel_`` series an expression selects is one the meter exports (each report
    made once, so every labelled series exists), with label values the bot uses: a
    misspelt name or value would make an alert that never fires."""
    meter = PrometheusMeter(lambda: 1_000.0)
    meter.api_call("sendMessage", "retry_after", 1.0)
    meter.press("card", 0.1)
    meter.changed("hvalenyi", moves=1, deals=1, match_over=True)
    meter.decision("strong", 0.1, 0.2)
    meter.transaction(0.01)
    meter.db_retry()
    meter.update()
    exposition = generate_latest(meter.registry).decode()
    exported = {
        sample.name
        for family in text_string_to_metric_families(exposition)
        for sample in family.samples
    }
    expressions = "\n".join(re.findall(r"expr: ([^\n]*(?:\n {10,}[^\n]*)*)", rules_text()))
    named = set(re.findall(r"\bkozel_\w+", expressions))
    assert named and named <= exported, named - exported
    outcomes = re.findall(r'outcome!?[=~]+"([\w|]+)"', expressions)
    assert outcomes and set("|".join(outcomes).split("|")) <= {"ok"} | {o for _, o in OUTCOMES}
    assert set(re.findall(r'kind="(\w+)"', expressions)) <= set(PRESS_KINDS)
    assert 'le="1.0"' in exposition  # the budget bucket the rule reads, as the client names it


def test_the_descriptions_name_series_the_bot_exports() -> None:
    """What an operator is told to look at exists (the meter's series and the levels read
    from the running bot, ``handlers.monitor``)."""
    sources = "".join(
        (ROOT / path).read_text(encoding="utf-8")
        for path in ("kozelbot/core/metrics.py", "handlers/monitor.py")
    )
    for name in set(re.findall(r"\bkozel_\w+", rules_text())):
        series = re.sub(r"_(total|bucket|count|sum)$", "", name)
        assert f'"{series}"' in sources, name


def test_each_mutation_is_a_real_edit_of_one_rule() -> None:
    text = rules_text()
    for alert, old, _, _ in MUTATIONS:
        assert text[slice(*rule_block(text, alert))].count(old) == 1, (alert, old)
    assert {alert for alert, *_ in MUTATIONS} == set(ALERTS)


@pytest.mark.parametrize("alert", ALERTS)
def test_each_alerts_tests_pass_alone(promtool: str, tmp_path: Path, alert: str) -> None:
    """The test groups that look at one alert pass by themselves (what the broken rules
    below are run against)."""
    shutil.copy(RULES, tmp_path / "alerts.yml")
    (tmp_path / "alerts_test.yml").write_text(unit_tests_of(alert), encoding="utf-8")
    ok, said = run(promtool, "test", "rules", tmp_path / "alerts_test.yml")
    assert ok, said


@pytest.mark.parametrize(
    ("alert", "old", "new", "caught_by"),
    MUTATIONS,
    ids=[f"{alert}:{old}->{new}" for alert, old, new, _ in MUTATIONS],
)
def test_a_broken_rule_fails_its_unit_tests(
    promtool: str, tmp_path: Path, alert: str, old: str, new: str, caught_by: str
) -> None:
    """The alert's own test groups fail on its rule with ``old`` made ``new``: the test
    named ``caught_by`` fails on what the alert did (not on a rule promtool cannot load)."""
    text = rules_text()
    start, end = rule_block(text, alert)
    broken = text[:start] + text[start:end].replace(old, new) + text[end:]
    (tmp_path / "alerts.yml").write_text(broken, encoding="utf-8")
    (tmp_path / "alerts_test.yml").write_text(unit_tests_of(alert), encoding="utf-8")
    ok, said = run(promtool, "test", "rules", tmp_path / "alerts_test.yml")
    assert not ok, f"{alert} with {old!r} -> {new!r} still passes its tests"
    failed = re.findall(r"name: ([^\n]*),\n *alertname: (\w+), time:", said)
    assert any(caught_by in name and named == alert for name, named in failed), said
