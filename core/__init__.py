"""The bottom layer: plain helpers with no project imports (language, ...)."""
