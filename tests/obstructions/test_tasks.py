from datetime import timedelta

from obstructions import services, tasks
from permits.models import JobRun
from tests.obstructions.conftest import at


def test_jobs_are_on_the_beat_schedule(settings):
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"obstructions.tasks.flag_cases_past_deadline", "obstructions.tasks.flag_street_number_timers"} <= scheduled


def test_303_6d_deadline_job_records_its_run_and_does_nothing_twice(inspector, house):
    import time_machine

    seen, served = at(2026, 5, 4, 8, 0), at(2026, 5, 4, 9, 30)
    with time_machine.travel(served, tick=False):
        case = services.open_case(
            kind="obstruction_sidewalk", address=house.site_address, what="Bins", seen_at=seen, by=inspector
        )
        services.serve_notice(case=case, served_to="owner", served_how="posted", served_at=served, by=inspector)
    later = (served + timedelta(hours=24)).isoformat()
    assert tasks.flag_cases_past_deadline(later) == 1
    assert tasks.flag_cases_past_deadline(later) == 0
    run = JobRun.objects.filter(name="obstructions.flag_cases_past_deadline").latest("started_at")
    assert (run.state, run.items_total, run.items_done) == (JobRun.State.FINISHED, 1, 0)


def test_303_14c_timer_job_runs_for_a_given_day(clerk, house):
    import time_machine

    with time_machine.travel(at(2026, 5, 1, 10, 0), tick=False):
        services.open_case(
            kind="street_number",
            address=house.site_address,
            what="No number",
            seen_at=at(2026, 5, 1, 9, 0),
            by=clerk,
            neglect_recorded_on=at(2026, 5, 1, 9).date(),
        )
    assert tasks.flag_street_number_timers("2026-05-21") == 0
    assert tasks.flag_street_number_timers("2026-05-22") == 1
