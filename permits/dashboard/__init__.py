"""The key figures for the Clerk-Treasurer and the Village Board: one page of the office's numbers this month and this
year, each linking to the list or report behind it, drawn as server-side bar charts with their tables."""
