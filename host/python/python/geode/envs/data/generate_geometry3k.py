"""Writes ``geometry3k.jsonl``: the sample ``math:Geometry3K`` walks when no dataset is given.

Each row has GEM's columns: ``problem`` (text that refers to the picture with ``<image>``),
``answer`` and ``images`` (one PNG each, base64 in ``bytes``, as a ``datasets`` Image column
holds it). The problems and their diagrams were written for geode; every answer follows from the
numbers drawn. Needs Pillow: ``python generate_geometry3k.py`` (from this directory).
"""

import base64
import io
import json
import math
from pathlib import Path

from PIL import Image, ImageDraw

SIZE = (240, 180)


def canvas():
    image = Image.new("RGB", SIZE, "white")
    return image, ImageDraw.Draw(image)


def png(image) -> dict:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return {"bytes": base64.b64encode(out.getvalue()).decode("ascii"), "path": None}


def polygon(draw, points, labels=()):
    draw.polygon(points, outline="black")
    for (x, y), text in labels:
        draw.text((x, y), text, fill="black")


def right_triangle():
    image, draw = canvas()
    polygon(draw, [(40, 150), (200, 150), (40, 30)], [((110, 155), "8"), ((22, 85), "6"), ((125, 80), "x")])
    draw.rectangle([40, 138, 52, 150], outline="black")
    return "<image>Find x.", "10", image


def rectangle_area():
    image, draw = canvas()
    polygon(draw, [(30, 50), (210, 50), (210, 130), (30, 130)], [((115, 35), "9 cm"), ((215, 85), "4 cm")])
    return "<image>Find the area of the rectangle in square centimeters.", "36", image


def circle_circumference():
    image, draw = canvas()
    draw.ellipse([60, 30, 180, 150], outline="black")
    draw.line([(120, 90), (180, 90)], fill="black")
    draw.text((145, 75), "5", fill="black")
    return "<image>Find the circumference of the circle. Leave your answer in terms of \\pi.", "10\\pi", image


def third_angle():
    image, draw = canvas()
    polygon(draw, [(30, 150), (210, 150), (90, 35)],
            [((45, 132), "50°"), ((180, 132), "60°"), ((85, 50), "x°")])
    return "<image>Find x.", "70", image


def isosceles_base_angle():
    image, draw = canvas()
    polygon(draw, [(40, 150), (200, 150), (120, 40)],
            [((112, 55), "100°"), ((55, 132), "x°"), ((75, 90), "a"), ((160, 90), "a")])
    return "<image>The two sides marked a are equal. Find x.", "40", image


def square_diagonal():
    image, draw = canvas()
    polygon(draw, [(70, 40), (170, 40), (170, 140), (70, 140)], [((115, 25), "4"), ((125, 95), "x")])
    draw.line([(70, 140), (170, 40)], fill="black")
    return "<image>The figure is a square. Find x, the length of its diagonal.", "4\\sqrt{2}", image


def supplementary_angles():
    image, draw = canvas()
    draw.line([(20, 120), (220, 120)], fill="black")
    angle = math.radians(115)
    draw.line([(120, 120), (120 + 90 * math.cos(angle), 120 - 90 * math.sin(angle))], fill="black")
    draw.text((130, 100), "115°", fill="black")
    draw.text((92, 100), "x°", fill="black")
    return "<image>The bottom line is straight. Find x.", "65", image


def triangle_area():
    image, draw = canvas()
    polygon(draw, [(30, 150), (210, 150), (150, 40)], [((115, 155), "12"), ((155, 95), "5")])
    draw.line([(150, 40), (150, 150)], fill="black")
    return "<image>The vertical segment is the height. Find the area of the triangle.", "30", image


PROBLEMS = [right_triangle, rectangle_area, circle_circumference, third_angle,
            isosceles_base_angle, square_diagonal, supplementary_angles, triangle_area]


def main() -> None:
    rows = []
    for make in PROBLEMS:
        problem, answer, image = make()
        rows.append({"problem": problem, "answer": answer, "images": [png(image)]})
    out = Path(__file__).with_name("geometry3k.jsonl")
    out.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    print(f"{len(rows)} rows -> {out}")


if __name__ == "__main__":
    main()
