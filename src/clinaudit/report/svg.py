"""Figures as inert inline SVG: matplotlib figure -> SVG -> sanitised markup.

The only markup the report renderer produces itself is the SVG of figures; it is
parsed and re-serialised here (comments, scripts, event handlers and external
references removed) before it is inlined.
"""

from __future__ import annotations

import io
import re
from typing import Any

__all__ = ["sanitize_svg", "figure_svg", "close_figure", "FIGURE_MAX_PX", "MIN_LABEL_PX"]


_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_SVG_ALLOWED = {"svg", "g", "path", "defs", "clipPath", "use", "text", "tspan", "style", "rect", "circle", "ellipse",
                "line", "polyline", "polygon", "image", "linearGradient", "radialGradient", "stop", "pattern", "mask",
                "title", "desc", "symbol", "marker"}
_URL_REF = re.compile(r"url\(\s*#([^)\s]+)\s*\)")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def sanitize_svg(svg: str, id_prefix: str) -> str:
    """An SVG document reduced to inert drawing markup, ready to inline in HTML.

    Parses the SVG (dropping comments, the XML declaration and DOCTYPE), keeps only
    drawing elements (no ``script``, ``foreignObject``, ``a`` or ``metadata``), drops
    event-handler attributes and any reference that is not in-document or an inline
    PNG/JPEG image, prefixes every id with ``id_prefix`` (several figures share one
    page) and re-serialises, which escapes all text.
    """
    import xml.etree.ElementTree as ET

    ET.register_namespace("", _SVG_NS)
    ET.register_namespace("xlink", _XLINK_NS)
    root = ET.fromstring(svg.encode("utf-8") if isinstance(svg, str) else svg)
    if _local(root.tag) != "svg":
        raise ValueError("not an SVG document")

    def strip(parent: Any) -> None:
        for child in list(parent):
            if not isinstance(child.tag, str) or _local(child.tag) not in _SVG_ALLOWED:
                parent.remove(child)
            else:
                strip(child)

    strip(root)
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    ren = {old: f"{id_prefix}{old}" for old in ids}

    def fix_refs(value: str) -> str:
        value = _URL_REF.sub(lambda m: f"url(#{ren.get(m.group(1), m.group(1))})", value)
        if re.search(r"url\(\s*[^#\s)]", value) or "javascript:" in value.lower() or "expression(" in value.lower():
            value = re.sub(r"url\(\s*[^#\s)][^)]*\)", "none", value)
            value = value.replace("javascript:", "").replace("expression(", "(")
        return value

    for el in root.iter():
        for attr in list(el.attrib):
            name = _local(attr).lower()
            val = el.attrib[attr]
            if name.startswith("on"):
                del el.attrib[attr]
            elif name == "href":
                if val.startswith("#"):
                    el.attrib[attr] = "#" + ren.get(val[1:], val[1:])
                elif not re.match(r"data:image/(png|jpeg);base64,[A-Za-z0-9+/=\s]*$", val) or _local(el.tag) != "image":
                    del el.attrib[attr]
            elif name == "id":
                el.attrib[attr] = ren.get(val, val)
            else:
                el.attrib[attr] = fix_refs(val)
        if _local(el.tag) == "style" and el.text:
            el.text = fix_refs(el.text).replace("@import", "")
    root.set("class", "figure-svg")
    root.set("role", "img")
    return ET.tostring(root, encoding="unicode")


#: the widest a figure is shown (px) in the report's column at a 1,400 px window; wider ones are scaled down
FIGURE_MAX_PX = 1000.0
#: the smallest label height (CSS px, font size) a figure's text is drawn at, after that scaling
MIN_LABEL_PX = 11.0


def figure_svg(fig: Any, id_prefix: str) -> str:
    """The figure as sanitised inline SVG, drawn once at its own size.

    Every section lays its figures out with ``tight_layout`` when it builds them, so the
    figure is saved as it is (``bbox_inches="tight"`` would draw it a second time only to
    crop a few pixels of margin). A figure made through pyplot is closed afterwards.
    """
    import matplotlib
    from matplotlib.text import Text

    # labels at least MIN_LABEL_PX high as shown: the page scales a figure wider than FIGURE_MAX_PX down
    width_px = float(fig.get_figwidth()) * 96.0
    scale = min(1.0, FIGURE_MAX_PX / width_px) if width_px > 0 else 1.0
    min_pt = MIN_LABEL_PX * 0.75 / scale
    small = [t for t in fig.findobj(Text) if t.get_text() and t.get_fontsize() < min_pt]
    for t in small:
        t.set_fontsize(min_pt)
    for ax in fig.axes if small else []:  # ticks drawn later copy the axes' tick settings
        ax.tick_params(labelsize=min_pt)
    if small:
        try:
            fig.tight_layout()
        except (ValueError, RuntimeError):  # a layout that cannot be tightened is drawn as it is
            pass
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "clinaudit"}):
        fig.savefig(buf, format="svg")
    close_figure(fig)
    return sanitize_svg(buf.getvalue(), id_prefix)


def close_figure(fig: Any) -> None:
    """Close a figure made through pyplot (a report renders each figure once; pyplot would keep it open)."""
    import sys

    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close(fig)
