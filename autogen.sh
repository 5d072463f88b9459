#!/bin/sh
# Regenerates configure and Makefile.in; run once after a fresh clone.
exec autoreconf -fi "$(dirname "$0")"
