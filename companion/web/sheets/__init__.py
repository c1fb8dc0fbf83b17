"""Saved score sheets on the web: their pages (`pages`), their JSON API (`api`) and what both share (`saved`: a sheet
opened by its link's token, the state shown, the phone's list). The sheets themselves are `companion.sheets`."""
