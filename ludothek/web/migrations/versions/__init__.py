# The revisions (a package so that a non-editable install ships them).
