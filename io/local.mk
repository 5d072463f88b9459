# io/ files: JSON/CSV of runs and searches, shared cell analysis
