"""Print-and-play: sheet geometry (pure), card drawing, and the PDF document."""
