"""Audit recipes, registered by name with `clinaudit.spec.register_audit`."""
