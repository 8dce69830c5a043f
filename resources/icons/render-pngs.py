#!/usr/bin/python3
"""Renders groupscope.svg to the PNG sizes the application icon uses.

Qt's SVG plugin is an optional package, so the window icon is built from PNGs. Run this
after editing the SVG: it uses librsvg and cairo through ctypes (no Python packages
needed). Usage: resources/icons/render-pngs.py
"""
import ctypes
import ctypes.util
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
SIZES = (16, 24, 32, 48, 64, 128, 256)

rsvg = ctypes.CDLL(ctypes.util.find_library("rsvg-2") or "librsvg-2.so.2")
cairo = ctypes.CDLL(ctypes.util.find_library("cairo") or "libcairo.so.2")
rsvg.rsvg_handle_new_from_file.restype = ctypes.c_void_p
rsvg.rsvg_handle_new_from_file.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
rsvg.rsvg_handle_render_cairo.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
cairo.cairo_image_surface_create.restype = ctypes.c_void_p
cairo.cairo_image_surface_create.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
cairo.cairo_create.restype = ctypes.c_void_p
cairo.cairo_create.argtypes = [ctypes.c_void_p]
cairo.cairo_scale.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double]
cairo.cairo_surface_write_to_png.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
cairo.cairo_destroy.argtypes = [ctypes.c_void_p]
cairo.cairo_surface_destroy.argtypes = [ctypes.c_void_p]

CAIRO_FORMAT_ARGB32 = 0
handle = rsvg.rsvg_handle_new_from_file(str(HERE / "groupscope.svg").encode(), None)
if not handle:
    raise SystemExit("cannot read groupscope.svg")
for size in SIZES:
    surface = cairo.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, size, size)
    context = cairo.cairo_create(surface)
    cairo.cairo_scale(context, size / 256.0, size / 256.0)
    rsvg.rsvg_handle_render_cairo(handle, context)
    out = HERE / f"groupscope-{size}.png"
    cairo.cairo_surface_write_to_png(surface, str(out).encode())
    cairo.cairo_destroy(context)
    cairo.cairo_surface_destroy(surface)
    print(out)
