"""The browser the tests drive and the phone it plays: plain values, importable without playwright."""
from __future__ import annotations

import os

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")



# A phone's screen as the browser tests open every page: 390 × 844 CSS px at 2×, touch.
# Its service worker blocked: a first visit would also keep copies of pages (a fifth of the browser's work in a test
# that is not about offline use); the tests of offline use open an OFFLINE_PHONE.
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True,
         "service_workers": "block"}



OFFLINE_PHONE = {**PHONE, "service_workers": "allow"}

