"""What is happening on each street: segments, where every permit is, the public map and list, conflict checks at
review, and the open-data feeds (WZDx 4.2, BLDS, iCalendar). Its models carry the `permits` app label."""
