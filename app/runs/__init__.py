"""One run of a thread, start to finish, and what the commands ask of stored threads."""
