"""HTML report: one self-contained file from one or more run directories."""
