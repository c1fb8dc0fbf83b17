"""Print-and-play: page layouts (pure geometry), card drawing, and the PDF document."""
