import os
from pathlib import Path

from hypothesis import HealthCheck, settings

DATA = Path(__file__).parent / "data"

settings.register_profile(
    "ludothek", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ludothek"))
