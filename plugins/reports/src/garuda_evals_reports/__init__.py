"""Report formats for people and CI: HTML, JUnit XML and Markdown."""
