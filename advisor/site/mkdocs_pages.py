"""Run by mkdocs-gen-files inside `mkdocs build` / `mkdocs serve` (see mkdocs.yml): generates the record pages.

Where the records are: $ADVISOR_SITE_RECORDS (set by `advisor site build --records`), else
`extra.advisor.records_dir` in mkdocs.yml, else `records/` beside mkdocs.yml. The date the review
states are computed for: $ADVISOR_SITE_TODAY (YYYY-MM-DD), else today. A record or evidence file
that cannot be used is logged as a MkDocs warning (so `--strict` fails on it) and left out.
"""

from __future__ import annotations

import mkdocs_gen_files

from advisor.site.mkdocs_glue import GenFilesWriter, site_settings
from advisor.site.generate import generate_site
from advisor.site.rendered import MarkdownSettings

settings = site_settings(mkdocs_gen_files.config)
report = generate_site(settings.records_dir, GenFilesWriter(), today=settings.today,
                       markdown=MarkdownSettings.from_mkdocs(mkdocs_gen_files.config))
settings.log_problems(report)
