"""MkDocs hooks of the decision-record site (named by `hooks:` in mkdocs.yml and the packaged config)."""

from advisor.site.mkdocs_rendered import adopt_rendered_pages as on_files
from advisor.site.sanitize import on_page_content, on_post_page, on_post_template

__all__ = ["on_files", "on_page_content", "on_post_page", "on_post_template"]
