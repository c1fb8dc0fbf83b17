"""Colour for a print service's CMYK files, converted by littleCMS (the colour engine Pillow's ImageCms and
Ghostscript use): from sRGB (or a picture's own embedded profile) into a real CMYK printing profile, Debian's
Ghostscript's "Artifex CMYK SWOP Profile" (`default_cmyk.icc`, a US web-coated SWOP press), then through
littleCMS's own ink-limiting device link, so no colour needs more than INK_LIMIT of ink in all.

Pillow's ImageCms builds transforms between two profiles only, and a device link that limits ink is a third step,
so the transform is made through littleCMS's C library itself (ctypes): the system's liblcms2, or the copy Pillow's
wheel carries. Each colour is converted once per process."""
from __future__ import annotations

import ctypes
import ctypes.util
import glob
import io
import os
import threading
from functools import lru_cache

PROFILE_PATHS = ("/usr/share/color/icc/ghostscript/default_cmyk.icc",
                 "/usr/share/ghostscript/iccprofiles/default_cmyk.icc")
PROFILE_ENV = "COMPANION_CMYK_PROFILE"  # another CMYK profile (a .icc file) to print for (companion.settings)
# What DriveThruCards allows in all (240 %), less what littleCMS's sampled device link and 8-bit rounding may add
# between its grid points (0.5 % measured over every sRGB colour in steps of 5): the files stay at or under 240 %.
SERVICE_INK_MAX = 240.0
INK_LIMIT = 236.0
OUTPUT_CONDITION = "CGATS TR 001"  # SWOP's registered characterization, the press the profile describes

_TYPE_RGB_8 = (4 << 16) | (3 << 3) | 1  # littleCMS's TYPE_RGB_8: COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(1)
_TYPE_GRAY_8 = (3 << 16) | (1 << 3) | 1
_TYPE_CMYK_8 = (6 << 16) | (4 << 3) | 1
_SIG_CMYK = 0x434D594B  # 'CMYK'
_SIG_RGB, _SIG_GRAY = 0x52474220, 0x47524159
_INTENT_RELATIVE = 1  # relative colorimetric, with black point compensation: flat colours as close as the press has
_FLAGS_BPC = 0x2000


class CmykError(Exception):
    """What keeps a CMYK file from being made: no CMYK profile, no littleCMS, a picture whose colours cannot be
    read (its message says which and why)."""


def profile_path() -> str:
    """The CMYK profile the files are made for: COMPANION_CMYK_PROFILE, else Debian's Ghostscript's."""
    from .. import settings

    given = settings.environment()["CMYK_PROFILE"]
    if given:
        return given
    for path in PROFILE_PATHS:
        if os.path.isfile(path):
            return path
    raise CmykError("no CMYK colour profile found: install Debian's ghostscript (apt-get install ghostscript, which "
                    f"brings {PROFILE_PATHS[0]}) or set {PROFILE_ENV} to a CMYK .icc file")


@lru_cache(maxsize=1)
def profile_bytes() -> bytes:
    path = profile_path()
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise CmykError(f"cannot read the CMYK profile {path}: {e.strerror}") from None


@lru_cache(maxsize=1)
def _library():
    """littleCMS's C library, its functions declared."""
    names = [ctypes.util.find_library("lcms2") or "liblcms2.so.2"]
    try:
        import PIL

        names += sorted(glob.glob(os.path.join(os.path.dirname(PIL.__file__), os.pardir, "pillow.libs", "liblcms2*")))
    except ImportError:  # pragma: no cover (Pillow is a dependency)
        pass
    lib = None
    for name in names:
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError:
            continue
    if lib is None:
        raise CmykError("littleCMS (liblcms2) is not found: apt-get install liblcms2-2")
    vp = ctypes.c_void_p
    lib.cmsOpenProfileFromMem.restype, lib.cmsOpenProfileFromMem.argtypes = vp, [ctypes.c_char_p, ctypes.c_uint32]
    lib.cmsCreate_sRGBProfile.restype = vp
    lib.cmsCreateInkLimitingDeviceLink.restype = vp
    lib.cmsCreateInkLimitingDeviceLink.argtypes = [ctypes.c_uint32, ctypes.c_double]
    lib.cmsGetColorSpace.restype, lib.cmsGetColorSpace.argtypes = ctypes.c_uint32, [vp]
    lib.cmsGetDeviceClass.restype, lib.cmsGetDeviceClass.argtypes = ctypes.c_uint32, [vp]
    lib.cmsCreateMultiprofileTransform.restype = vp
    lib.cmsCreateMultiprofileTransform.argtypes = [ctypes.POINTER(vp), ctypes.c_uint32, ctypes.c_uint32,
                                                   ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32]
    lib.cmsDoTransform.restype, lib.cmsDoTransform.argtypes = None, [vp, ctypes.c_char_p, ctypes.c_char_p,
                                                                     ctypes.c_uint32]
    lib.cmsCloseProfile.argtypes = [vp]
    lib.cmsDeleteTransform.argtypes = [vp]
    return lib


class Transform:
    """One littleCMS transform into the service's CMYK, ink limited: from sRGB by default, or from a picture's own
    profile (its bytes)."""

    _lock = threading.Lock()

    def __init__(self, source: bytes | None = None):
        lib = _library()
        target = profile_bytes()
        out = lib.cmsOpenProfileFromMem(target, len(target))
        if not out or lib.cmsGetColorSpace(out) != _SIG_CMYK:
            raise CmykError(f"{profile_path()} is not a CMYK output profile")
        if source is None:
            given, kind = lib.cmsCreate_sRGBProfile(), _TYPE_RGB_8
        else:
            given = lib.cmsOpenProfileFromMem(source, len(source))
            space = lib.cmsGetColorSpace(given) if given else None
            kind = {_SIG_RGB: _TYPE_RGB_8, _SIG_GRAY: _TYPE_GRAY_8, _SIG_CMYK: _TYPE_CMYK_8}.get(space)
            if kind is None:
                raise CmykError("its embedded colour profile cannot be read as an RGB, grey or CMYK profile")
        limit = lib.cmsCreateInkLimitingDeviceLink(_SIG_CMYK, INK_LIMIT)
        chain = (ctypes.c_void_p * 3)(given, out, limit)
        self.handle = lib.cmsCreateMultiprofileTransform(chain, 3, kind, _TYPE_CMYK_8, _INTENT_RELATIVE, _FLAGS_BPC)
        for profile in (given, out, limit):
            lib.cmsCloseProfile(profile)
        if not self.handle:
            raise CmykError("littleCMS cannot make a transform from its colour profile into CMYK")
        self.channels = {_TYPE_RGB_8: 3, _TYPE_GRAY_8: 1, _TYPE_CMYK_8: 4}[kind]
        self.lib = lib

    def bytes(self, data: bytes) -> bytes:
        """Pixels (3, 1 or 4 bytes each, as the source) converted to CMYK, 4 bytes each (0–255 of ink)."""
        n = len(data) // self.channels
        out = ctypes.create_string_buffer(n * 4)
        with self._lock:
            self.lib.cmsDoTransform(self.handle, data, out, n)
        return out.raw

    def __del__(self):
        handle = getattr(self, "handle", None)
        if handle:
            self.lib.cmsDeleteTransform(handle)


@lru_cache(maxsize=1)
def srgb() -> Transform:
    return Transform()


@lru_cache(maxsize=65536)
def cmyk_of(r: int, g: int, b: int) -> tuple[float, float, float, float]:
    """An sRGB colour (0–255) as the service's CMYK (0–1 each)."""
    c, m, y, k = srgb().bytes(bytes((r, g, b)))
    return c / 255, m / 255, y / 255, k / 255


def image_cmyk(image):
    """A picture (PIL) as a CMYK one for the service's profile, from its embedded profile if it has one, else from
    sRGB (CMYK pictures without one: as they are); its transparency must have been flattened before. CmykError
    names what cannot be converted."""
    from PIL import Image

    icc = image.info.get("icc_profile")
    if image.mode == "CMYK" and not icc:
        return image
    if image.mode not in ("RGB", "L", "CMYK"):
        image = image.convert("RGB")
    if icc:
        transform = Transform(icc)
        want = {1: "L", 3: "RGB", 4: "CMYK"}[transform.channels]
        if image.mode != want:
            raise CmykError(f"its embedded colour profile is for {want} pixels but the picture is {image.mode}")
    else:
        transform = srgb() if image.mode != "L" else None
        if transform is None:
            image, transform = image.convert("RGB"), srgb()
    return Image.frombytes("CMYK", image.size, transform.bytes(image.tobytes()))


def picture_problem(data: bytes) -> str | None:
    """Why a PNG or JPEG's colours cannot be made CMYK (a damaged or unknown embedded profile), or None."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:
            icc = im.info.get("icc_profile")
            mode = im.mode
    except Exception as e:  # noqa: BLE001 (the art check reads it first; whatever Pillow raises)
        return f"cannot be read ({type(e).__name__})"
    if not icc:
        return None
    try:
        transform = Transform(icc)
    except CmykError as e:
        return str(e)
    want = {1: ("L", "LA"), 3: ("RGB", "RGBA", "P"), 4: ("CMYK",)}[transform.channels]
    if mode not in want:
        return f"its embedded colour profile does not fit its pixels ({mode})"
    return None
