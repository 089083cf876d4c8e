"""The allowlist sanitizer every site page passes through (advisor/site/sanitize.py), without a browser."""

from __future__ import annotations

import pytest

from advisor.markdown import md_escape
from advisor.site.sanitize import sanitize_html


@pytest.mark.parametrize(
    "html, gone",
    [
        ('<h1 autofocus onfocus="alert(2)">T</h1>', "onfocus"),
        ('<td onclick="alert(8)">Bob</td>', "onclick"),
        ('<img src="y" onerror="alert(3)">', "onerror"),
        ('<a href="javascript:alert(6)">x</a>', "javascript"),
        ('<a href="data:text/html,x">x</a>', "data:"),
        ("<script>alert(1)</script>", "alert(1)"),
        ("<style>body{}</style>", "body{}"),
        ('<iframe src="https://example.com"></iframe>', "iframe"),
        ('<div style="background:url(javascript:alert(1))">x</div>', "background"),
        ('<svg onload="alert(1)"></svg>', "svg"),
    ],
)
def test_active_content_is_removed(html: str, gone: str):
    assert gone not in sanitize_html(html)


def test_page_content_the_site_needs_is_kept():
    html = ('<h2 id="tier-1">Tier 1<a class="headerlink" href="#tier-1" title="Permanent link">&para;</a></h2>'
            '<table><thead><tr><th style="text-align: left;">concern</th></tr></thead><tbody><tr><td>gemm</td></tr></tbody></table>'
            '<p><img alt="chart" class="advisor-chart" src="0001/evidence-gemm-tflops.svg"></p>'
            '<p><a href="../0004-x/">0004</a> <a href="https://docs.nvidia.com/cuda/cublas/">cuBLAS</a>'
            ' <span class="advisor-badge advisor-badge--proposed">proposed</span></p>'
            '<div class="admonition warning"><p class="admonition-title">Superseded</p></div>'
            '<pre><code>advisor probe gemm</code></pre>')
    cleaned = sanitize_html(html)
    for kept in ('id="tier-1"', 'class="headerlink"', 'style="text-align:left"', 'class="advisor-chart"',
                 'href="../0004-x/"', 'href="https://docs.nvidia.com/cuda/cublas/"', "advisor-badge--proposed",
                 'class="admonition warning"', "<code>advisor probe gemm</code>"):
        assert kept in cleaned, kept


def test_braces_in_record_text_never_reach_attr_list():
    assert md_escape("Pwn { onfocus=alert(2) }") == "Pwn \\{ onfocus=alert(2) \\}"
