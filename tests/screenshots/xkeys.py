#!/usr/bin/python3
"""Types key chords into the focused window of the X display in $DISPLAY through the XTEST
extension (libXtst via ctypes: no xdotool needed), for driving the GUI in screenshots.

  xkeys.py KEY [KEY ...]     e.g. click:700,270 alt+3 ctrl+a Right F2 Up Return "text:-250"

click:X,Y clicks the left button there (without a window manager, that is what gives the
window the keyboard focus); move:X,Y only moves the pointer there (to hover for a tooltip). A KEY is an X keysym name (Return, Escape, Right, F2, a, 3) with optional ctrl+/alt+/shift+
prefixes, or text:STRING to type the characters of STRING.
"""
import ctypes
import sys
import time

x11 = ctypes.CDLL("libX11.so.6")
xtst = ctypes.CDLL("libXtst.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XStringToKeysym.restype = ctypes.c_ulong
x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
x11.XKeysymToKeycode.restype = ctypes.c_ubyte
x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
x11.XFlush.argtypes = [ctypes.c_void_p]
xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                      ctypes.c_ulong]

display = x11.XOpenDisplay(None)
if not display:
    sys.exit("cannot open the X display")

MODIFIERS = {"ctrl": "Control_L", "alt": "Alt_L", "shift": "Shift_L"}
CHARACTERS = {"-": "minus", ":": "colon", ".": "period", " ": "space", "+": "plus", "T": "T",
              "_": "underscore"}


def keycode(name):
    code = x11.XKeysymToKeycode(display, x11.XStringToKeysym(name.encode()))
    if not code:
        sys.exit("unknown key %s" % name)
    return code


def press(names):
    codes = [keycode(name) for name in names]
    for code in codes:
        xtst.XTestFakeKeyEvent(display, code, True, 0)
    for code in reversed(codes):
        xtst.XTestFakeKeyEvent(display, code, False, 0)
    x11.XFlush(display)
    # The GUI handles each key in its event loop; a human-like pace keeps the order.
    time.sleep(0.15)


def click(x, y):
    xtst.XTestFakeMotionEvent(display, -1, x, y, 0)
    xtst.XTestFakeButtonEvent(display, 1, True, 0)
    xtst.XTestFakeButtonEvent(display, 1, False, 0)
    x11.XFlush(display)
    time.sleep(0.3)


def move(x, y):
    xtst.XTestFakeMotionEvent(display, -1, x, y, 0)
    x11.XFlush(display)
    time.sleep(0.3)


for argument in sys.argv[1:]:
    if argument.startswith("move:"):
        x, y = argument[5:].split(",")
        move(int(x), int(y))
        continue
    if argument.startswith("click:"):
        x, y = argument[6:].split(",")
        click(int(x), int(y))
        continue
    if argument.startswith("text:"):
        for character in argument[5:]:
            name = CHARACTERS.get(character, character)
            press(["Shift_L", name] if character.isupper() or character in ":+" else [name])
        continue
    parts = argument.split("+")
    press([MODIFIERS.get(part, part) for part in parts[:-1]] + [parts[-1]])
