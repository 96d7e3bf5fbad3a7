"""The command line's dispatcher: commands are found by module, unknown ones are usage errors."""

from dimsum.cli import commands, main


def test_help_lists_every_command(capsys):
    assert main(["help"]) == 0
    out = capsys.readouterr().out
    assert "(no command)" in out
    for name in commands():
        assert name in out


def test_an_unknown_command_is_a_usage_error_not_a_traceback(capsys):
    assert main(["no-such-command"]) == 2
    assert "unknown command 'no-such-command'" in capsys.readouterr().err
