"""The command-line pieces that itch5plot and itch5batch share: argparse with the project's one-line usage
errors (exit status 2), the help layout, and value types.

A module beside the programs (itch5plot puts its own directory on sys.path, itch5batch likewise), copied
and installed with them."""

import argparse


class UsageError(Exception):
    """Exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse with the project's one-line usage errors: 'MESSAGE (see PROG --help)', and for a
    subcommand's parser 'SUB: MESSAGE (see PROG SUB --help)'."""

    def error(self, message):
        _, _, sub = self.prog.partition(" ")
        raise UsageError(f"{sub + ': ' if sub else ''}{message} (see {self.prog} --help)")


class Formatter(argparse.RawDescriptionHelpFormatter):
    """The help as written (descriptions keep their lines), options at 28 columns, 100 columns wide."""

    def __init__(self, prog):
        super().__init__(prog, max_help_position=28, width=100)


def positive_int(text):
    """A whole number of at least 1, for type= of an option."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not at least 1")
    return value
