"""Settings of the web processes tests/test_scale_out.py starts: the project's, with the numbering endpoint mounted."""

from theresa_permits.settings import *  # noqa: F403

ROOT_URLCONF = "tests.scale_out_urls"
