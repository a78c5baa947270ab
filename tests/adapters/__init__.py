"""Tests of the OpenSpiel and PettingZoo adapters (issue 12)."""
