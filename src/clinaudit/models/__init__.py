"""Model backends behind one interface, registered by name (see :mod:`clinaudit.models.base`)."""

from .base import Backend, MaskedItem, RetryableError, get_backend, list_backends, parse_spec, register_backend

__all__ = ["Backend", "MaskedItem", "RetryableError", "get_backend", "list_backends", "parse_spec", "register_backend"]
