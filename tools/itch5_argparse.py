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


# ---------------------------------------------------------------------------------------------------
# --version: the form of the C++ tools' (cli/build_info): "PROG VERSION (commit C)", then a line per
# component.

def version_text(prog, extra_lines=()):
    """'PROG VERSION (commit C)' from the source tree (the copy in the build directory knows it through
    itch5plot_lib/build_info.py, written by tools/CMakeLists.txt), then `extra_lines`."""
    import os
    import re
    import subprocess
    here = os.path.dirname(os.path.realpath(__file__))
    root, version = os.path.dirname(here), "unknown"
    try:
        from itch5plot_lib import build_info  # beside this module in the build directory
        root, version = build_info.SOURCE_DIR, build_info.VERSION
    except ImportError:
        pass
    try:
        with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
            m = re.search(r"project\(itch5 VERSION ([0-9.]+)", f.read())
            if m:
                version = m.group(1)
    except OSError:
        pass
    commit = "unknown"
    try:
        commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=5).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        pass
    return "\n".join([f"{prog} {version} (commit {commit})", *extra_lines])


# ---------------------------------------------------------------------------------------------------
# --config FILE and --print-config, as the C++ tools do them (cli/options.hpp): every long flag is the
# YAML key of the same name (--no-progress: no-progress), the positional arguments are keys named like
# their dest (input, inputs, days); defaults < the files (in order) < the command line; an unknown,
# repeated or ill-typed key is a usage error naming the file and the key.

CONFIG_HELP = ("read options from a YAML file: the long flags' names as keys (e.g. 'size: 900x560'), the "
               "arguments too (see --print-config); flags override the file. May be given more than once.")
PRINT_CONFIG_HELP = "print the effective configuration as YAML (a valid --config file) and exit"
NOT_CONFIG = {"help", "config", "print_config", "version"}


def config_files(argv):
    """The values of --config FILE / --config=FILE in `argv` (before a '--')."""
    files = []
    i = 0
    while i < len(argv) and argv[i] != "--":
        a = argv[i]
        if a == "--config":
            if i + 1 >= len(argv):
                raise UsageError("--config: missing FILE")
            files.append(argv[i + 1])
            i += 2
            continue
        if a.startswith("--config="):
            files.append(a[len("--config="):])
        i += 1
    return files


def load_yaml_mapping(path):
    """The one mapping of a YAML file; a repeated key, several documents or another shape is an error."""
    import os
    try:
        import yaml
    except ImportError:
        raise UsageError("--config needs PyYAML (Debian: python3-yaml, scripts/setup installs it)") from None

    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader, node):
        seen = {}
        for key_node, _ in node.value:
            key = loader.construct_object(key_node)
            if key in seen:
                raise UsageError(f"config file {path}: key '{key}' is repeated (lines {seen[key]} and "
                                 f"{key_node.start_mark.line + 1})")
            seen[key] = key_node.start_mark.line + 1
        return loader.construct_mapping(node)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    if os.path.isdir(path):
        raise UsageError(f"--config: '{path}' is a directory, not a YAML file")
    try:
        with open(path, encoding="utf-8") as f:
            documents = list(yaml.load_all(f, Loader=Loader))
    except OSError as e:
        raise UsageError(f"--config: cannot read '{path}': {e.strerror}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise UsageError(f"config file {path}: not valid YAML: {' '.join(str(e).split())}") from None
    if len(documents) > 1:
        raise UsageError(f"config file {path}: holds {len(documents)} YAML documents (separated by ---); "
                         "expected one")
    root = documents[0] if documents else None
    if root is None:
        return {}
    if not isinstance(root, dict):
        raise UsageError(f"config file {path}: expected a mapping of option names to values")
    for key in root:
        if not isinstance(key, str):
            raise UsageError(f"config file {path}: expected an option name as the key, got {key!r}")
    return root


def config_key(action):
    """The YAML key of an argparse action: its long flag without '--', or a positional's dest."""
    if not action.option_strings:
        return action.dest
    longs = [s for s in action.option_strings if s.startswith("--")]
    return (longs[0] if longs else action.option_strings[0]).lstrip("-")


def config_actions(parser):
    return {config_key(a): a for a in parser._actions if a.dest not in NOT_CONFIG}


def yaml_text(value):
    """A YAML scalar as the command line would give it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def apply_config(parser, argv, extra_keys=None):
    """Reads the --config files named in `argv` into `parser`'s defaults (flags then override them).
    `extra_keys`: {key: callback(value, where)} for keys the program handles itself. Returns the files."""
    import argparse
    files = config_files(argv)
    actions = config_actions(parser)
    for path in files:
        for key, value in load_yaml_mapping(path).items():
            where = f"config file {path}: key '{key}'"
            if extra_keys and key in extra_keys:
                extra_keys[key](value, where)
                continue
            action = actions.get(key)
            if action is None:
                raise UsageError(f"{where}: unknown option (see {parser.prog} --help)")
            if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
                if not isinstance(value, bool):
                    raise UsageError(f"{where}: expected true or false, got '{value}'")
                parser.set_defaults(**{action.dest: value if isinstance(action, argparse._StoreTrueAction)
                                       else not value})
                continue
            many = action.nargs in ("*", "+")
            if value is None:
                raise UsageError(f"{where}: has no value")
            if isinstance(value, list):
                if not many and not getattr(action.type, "takes_list", False):
                    raise UsageError(f"{where}: expected a single value, got a list")
                if any(isinstance(v, (list, dict)) or v is None for v in value):
                    raise UsageError(f"{where}: list items must be scalars")
                items = [yaml_text(v) for v in value]
                texts = items if many else [",".join(items)]
            elif isinstance(value, dict):
                raise UsageError(f"{where}: expected a scalar value")
            else:
                texts = [yaml_text(value)]
            converted = []
            for text in texts:
                try:
                    v = action.type(text) if action.type else text
                except (argparse.ArgumentTypeError, ValueError) as e:
                    raise UsageError(f"{where}: {e}") from None
                if action.choices is not None and v not in action.choices:
                    raise UsageError(f"{where}: expected one of {', '.join(map(str, action.choices))}, "
                                     f"got '{text}'")
                converted.append(v)
            value = converted if many else converted[0]
            action.required = False  # the file gave it (--symbol of itch5plot inside, a positional)
            if not action.option_strings:  # a positional: now optional, the file's value its default
                action.nargs = "*" if many else "?"
            action.default = value
            parser.set_defaults(**{action.dest: value})
    return files


def print_config(parser, args, formatters=None, extra=None):
    """The effective configuration of `args` as YAML: every option by its long flag's name, then the
    arguments; `formatters`: {dest: function(value) -> text or list} for values whose str() is not what the
    flag takes; `extra`: further (key, value) pairs."""
    import yaml
    formatters = formatters or {}
    out = {}
    positionals = {}
    for key, action in config_actions(parser).items():
        value = getattr(args, action.dest, None)
        if value is None:
            continue
        if action.dest in formatters:
            value = formatters[action.dest](value)
        elif isinstance(value, tuple):
            value = list(value)
        (out if action.option_strings else positionals)[key] = value
    out.update(extra or {})
    out.update(positionals)
    # One key a line, lists in flow style ([a, b]), as the C++ tools print them.
    return "".join(yaml.safe_dump({k: v}, default_flow_style=None if isinstance(v, list) else False,
                                  width=100000) for k, v in out.items())
