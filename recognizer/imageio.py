"""Load a photo as RGB pixels: EXIF orientation applied, odd modes converted, bombs and junk refused."""

from __future__ import annotations

import io
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from recognizer.errors import ImageError

MAX_PIXELS = 100_000_000
"""Photos above 100 megapixels are refused (a 12 MP phone photo is far below; a decompression bomb is not)."""

MAX_DECODED_BYTES = 160 * 2**20
"""Pixel memory a photo may take once decoded, counted from its header before decoding (width x height x
bytes per pixel as Pillow stores them: 1 for grey or palette, 2 for 16-bit grey, 4 for colour), after a JPEG's
reduced-size decoding. A 12 MP PNG takes 48 MB; a 194 KB 16-bit PNG claiming 10000x10000 would take 200 MB
(and far more on its way to RGB) and is refused at once."""

MAX_SIDE = 2048
"""Longest side of the pixels kept for processing; larger photos are downscaled (see `LoadedImage.scale`).
A 12 MP phone photo is decoded at half size (2016x1512): tiles stay far larger than the 48x64 crops."""

FORMATS = ("JPEG", "PNG", "WEBP", "AVIF", "BMP", "TIFF")
"""Formats Pillow may open (its JPEG reader also opens the MPO files many phones write; AVIF where Pillow
was built with it, as its wheels are). HEIC, an iPhone's own format, is pi-heif's (`_decode_heif`)."""

HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1")
"""ISO media `ftyp` brands of HEIC/HEIF photos (`mif1` is also among an AVIF file's brands)."""

NO_HEIF_READER = (
    "HEIC/HEIF photos need the pi-heif package (pip install pi-heif); or export the photo as JPEG"
)

_BYTES_PER_PIXEL = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16L": 2, "I;16B": 2, "I;16N": 2}
"""Bytes Pillow keeps per pixel for each mode; every other mode (RGB included, stored as RGBX) takes 4."""

# Deliberate: Pillow warns above this and raises above twice this; we refuse above it ourselves.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS


@dataclass
class LoadedImage:
    """A decoded photo: `rgb` pixels (maybe downscaled by `scale`) and the original size after EXIF."""

    rgb: np.ndarray
    width: int
    height: int
    scale: float = 1.0


def load_image(source: str | Path | bytes, max_side: int = MAX_SIDE) -> LoadedImage:
    """Decode a JPEG/PNG/WebP/HEIC/AVIF path or bytes; raise ImageError with a one-line reason otherwise."""
    name, data = _read_source(source)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            return _decode(data, max_side)
    except ImageError as exc:
        raise ImageError(f"{name}: {exc}") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageError(f"{name}: image too large (over {MAX_PIXELS // 1_000_000} megapixels)") from None
    except UnidentifiedImageError:
        raise ImageError(f"{name}: {_unidentified_reason(data)}") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ImageError(f"{name}: corrupt or truncated image ({_one_line(exc)})") from None


def _read_source(source: str | Path | bytes) -> tuple[str, bytes]:
    """Return a display name and the raw bytes of `source`."""
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
        name = "<bytes>"
    else:
        path = Path(source)
        name = str(source)
        try:
            mode = path.stat().st_mode
        except OSError as exc:  # missing, a dangling link or a loop, a name too long for the system, ...
            reason = (
                "no such file" if isinstance(exc, FileNotFoundError) else f"cannot read ({_one_line(exc)})"
            )
            raise ImageError(f"{name}: {reason}") from None
        if not stat.S_ISREG(mode):  # a folder, or a FIFO that would block the read forever
            raise ImageError(f"{name}: not a file")
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ImageError(f"{name}: cannot read ({_one_line(exc)})") from None
    if not data:
        raise ImageError(f"{name}: empty file (0 bytes)")
    return name, data


def _decode(data: bytes, max_side: int) -> LoadedImage:
    """Open, check size, decode, orient and convert `data`; errors propagate to `load_image`."""
    if is_heif(data):
        return _decode_heif(data, max_side)
    image = Image.open(io.BytesIO(data), formats=FORMATS)
    stored_w, stored_h = image.size
    _check_size(stored_w, stored_h)
    if image.format in ("JPEG", "MPO") and max(stored_w, stored_h) > max_side:
        # JPEG decodes at 1/2, 1/4 or 1/8 scale directly, much faster than decoding all and shrinking:
        # ask for just over half the target so the scale chosen lands between max_side / 2 and max_side.
        factor = (max_side // 2 + 1) / max(stored_w, stored_h)
        image.draft("RGB", (max(1, int(stored_w * factor)), max(1, int(stored_h * factor))))
    _check_decoded(
        stored_w, stored_h, image.mode, image.size[0] * image.size[1] * _BYTES_PER_PIXEL.get(image.mode, 4)
    )
    image.load()
    decoded = _reduced(image, max_side)
    decoded_w, decoded_h = decoded.size
    oriented = _oriented(decoded)
    width, height = _oriented_size(oriented, stored_w, stored_h, decoded_w, decoded_h)
    rgb = _to_rgb_array(oriented)
    if max(rgb.shape[:2]) > max_side:
        rgb = _downscale(rgb, max_side)
    scale = rgb.shape[1] / width
    return LoadedImage(rgb=np.ascontiguousarray(rgb), width=width, height=height, scale=min(scale, 1.0))


def _check_size(width: int, height: int) -> None:
    """Refuse a photo whose header gives no size or more than MAX_PIXELS, before anything is decoded."""
    if width <= 0 or height <= 0:
        raise ImageError(f"invalid image size {width}x{height}")
    if width * height > MAX_PIXELS:
        raise ImageError(
            f"image too large ({width}x{height} = {width * height / 1e6:.0f} megapixels, "
            f"limit {MAX_PIXELS // 1_000_000})"
        )


def _check_decoded(width: int, height: int, mode: str, decoded_bytes: int) -> None:
    """Refuse a photo whose pixels would take more than MAX_DECODED_BYTES once decoded, before decoding."""
    if decoded_bytes > MAX_DECODED_BYTES:
        raise ImageError(
            f"image too large to decode ({width}x{height} {_depth_name(mode)} = "
            f"{decoded_bytes / 2**20:.0f} MiB of pixels, limit {MAX_DECODED_BYTES // 2**20} MiB); "
            "save it as a JPEG or smaller"
        )


def is_heif(data: bytes) -> bool:
    """Whether `data` starts like a HEIC/HEIF photo (an ISO media `ftyp` box naming a HEIF brand); an AVIF
    file (its first brand `avif` or `avis`) is Pillow's own to read."""
    if data[4:8] != b"ftyp" or data[8:12] in (b"avif", b"avis"):
        return False
    return any(brand in data[8:64] for brand in HEIF_BRANDS)


def heif_decoder() -> ModuleType | None:
    """pi-heif, the HEIC decoder; None where it is not installed."""
    try:
        import pi_heif
    except ImportError:
        return None
    return pi_heif


def _decode_heif(data: bytes, max_side: int) -> LoadedImage:
    """A HEIC photo decoded by pi-heif straight into one array (not copied again into Pillow's layout), so
    that an iPhone's 48 MP photo fits the pixel budget; the decoder applies the photo's own rotation."""
    pi_heif = heif_decoder()
    if pi_heif is None:
        raise ImageError(NO_HEIF_READER)
    try:
        heif = pi_heif.open_heif(io.BytesIO(data), convert_hdr_to_8bit=True)
    except (ValueError, RuntimeError, OSError, SyntaxError):
        raise ImageError("corrupt HEIC/HEIF photo (no picture found in it)") from None
    width, height = heif.size
    _check_size(width, height)
    mode = "RGBA" if heif.has_alpha else "RGB"
    _check_decoded(width, height, mode, width * height * len(mode))  # decoded as packed bytes, not Pillow's 4
    try:
        pixels = np.asarray(heif)
    except (ValueError, RuntimeError) as exc:
        raise ImageError(f"corrupt or truncated image ({_one_line(exc)})") from None
    if pixels.shape[2] == 4:  # rare in a photo: composited on white as every other format's alpha
        pixels = _to_rgb_array(Image.fromarray(pixels, "RGBA"))
    # the decoder's buffer lives only as long as `heif`: what is kept is always a new array
    rgb = _downscale(pixels, max_side) if max(pixels.shape[:2]) > max_side else pixels.copy()
    return LoadedImage(rgb=rgb, width=width, height=height, scale=min(rgb.shape[1] / width, 1.0))


REDUCIBLE_MODES = ("RGB", "RGBA", "L", "LA")
"""Modes Pillow's box reduction takes; other modes (palette, 16-bit grey) are shrunk after conversion."""


def _reduced(image: Image.Image, max_side: int) -> Image.Image:
    """A photo decoded at twice `max_side` or more (a big PNG or AVIF; JPEG decodes small, HEIC apart)
    averaged down by a whole factor at once, so its later copies (turned, converted) are small too: a 24 MP
    PNG then peaks at about half the memory. What remains above `max_side` is shrunk by `_downscale`."""
    factor = max(image.size) // max_side
    if factor < 2 or image.mode not in REDUCIBLE_MODES:
        return image
    return image.reduce(factor)


def _oriented(image: Image.Image) -> Image.Image:
    """Apply the EXIF orientation tag; a broken EXIF block is ignored rather than fatal."""
    try:
        oriented = ImageOps.exif_transpose(image)
    except Exception:  # malformed EXIF must not make a good photo unreadable
        return image
    return oriented if oriented is not None else image


def _oriented_size(
    image: Image.Image, stored_w: int, stored_h: int, dec_w: int, dec_h: int
) -> tuple[int, int]:
    """Original (full-resolution) size after EXIF orientation, even when JPEG draft decoded it smaller."""
    swapped = image.size == (dec_h, dec_w) and dec_w != dec_h
    return (stored_h, stored_w) if swapped else (stored_w, stored_h)


def _to_rgb_array(image: Image.Image) -> np.ndarray:
    """Convert any Pillow mode to an (H, W, 3) uint8 array; alpha is composited on white."""
    mode = image.mode
    if mode in ("I;16", "I;16L", "I;16B", "I;16N", "I", "F"):
        grey8 = _grey_to_uint8(np.asarray(image))
        return np.repeat(grey8[:, :, None], 3, axis=2)
    if mode == "P" and "transparency" in image.info:
        image = image.convert("RGBA")
    if image.mode in ("RGBA", "LA", "PA", "RGBa", "La"):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        image = Image.alpha_composite(background, rgba)
    if image.mode != "RGB":
        image = image.convert("RGB")
    return np.asarray(image, dtype=np.uint8)


def _grey_to_uint8(grey: np.ndarray) -> np.ndarray:
    """16-bit, 32-bit or float grey to 0..255: values above 255 are taken as 16-bit (scaled by 255/65535).

    Integer arithmetic (at most 4 bytes a pixel) rather than float64, which took 8 GB-scale memory on big
    16-bit photos.
    """
    if grey.dtype.kind == "f":
        grey = np.nan_to_num(grey.astype(np.float32, copy=False), nan=0.0, posinf=65535.0, neginf=0.0)
        peak = 65535.0 if grey.max(initial=0) > 255 else 255.0
        return np.clip(grey * np.float32(255.0 / peak), 0, 255).round().astype(np.uint8)
    if grey.dtype != np.uint16:
        grey = np.clip(grey, 0, 65535)
    if grey.max(initial=0) <= 255:
        return grey.astype(np.uint8)
    wide = grey.astype(np.uint32)  # in place from here: one 4-byte copy, no float64 temporaries
    wide *= 255
    wide += 32767
    wide //= 65535
    return wide.astype(np.uint8)


def _depth_name(mode: str) -> str:
    """How a Pillow mode reads in a message: '16-bit grey', 'RGB', ..."""
    if mode.startswith("I;16"):
        return "16-bit grey"
    return {"L": "grey", "I": "32-bit grey", "F": "float grey", "P": "palette", "1": "black-and-white"}.get(
        mode, mode
    )


def _downscale(rgb: np.ndarray, max_side: int) -> np.ndarray:
    """Shrink so the longest side is `max_side`, averaging pixels (no aliasing)."""
    import cv2

    h, w = rgb.shape[:2]
    factor = max_side / max(h, w)
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    return cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)


def _unidentified_reason(data: bytes) -> str:
    """Say what a file Pillow could not identify probably is."""
    head = data[:64]
    if head.lstrip().startswith((b"<", b"{", b"[")) or _looks_like_text(head):
        return "not an image (looks like a text file)"
    return "not an image in a supported format (JPEG, PNG, WebP, HEIC or AVIF)"


def _looks_like_text(head: bytes) -> bool:
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return all(ch.isprintable() or ch in "\r\n\t" for ch in text)


def _one_line(exc: BaseException) -> str:
    """The exception's message squeezed to one line."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]
