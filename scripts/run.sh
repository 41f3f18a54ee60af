#!/usr/bin/env bash
echo "make run: not wired yet" >&2; exit 1
