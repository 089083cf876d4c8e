"""mkdocs-gen-files' script (`plugins: gen-files: scripts:` in mkdocs.yml and the packaged config): generates
the record pages inside `mkdocs build` / `mkdocs serve`.

gen-files runs a script by its path, and what runs is the script's top level, so this file stays apart from
advisor/site/mkdocs_plugin.py (which MkDocs imports for its hooks) and only calls it. Where the records are
and the date reviews are judged against: `extra.advisor` in the config (mkdocs_plugin.site_settings).
"""

from advisor.site.mkdocs_plugin import generate_pages

generate_pages()
