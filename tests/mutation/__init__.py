"""Mutation check of the rule modules (see run_mutants.py); not a test package."""
