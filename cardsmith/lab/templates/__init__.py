"""The balance lab's page template (report.html.j2)."""
