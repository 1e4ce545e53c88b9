from ledger.cli import main


def test_cli_prints_report_and_warnings(tmp_path, capsys):
    data = tmp_path / "ledger.csv"
    data.write_text(
        "date,category,kind,amount\n"
        "2024-05-01,salary,income,100\n"
        "2024-05-02,groceries,expense,450\n",
        encoding="utf-8",
    )
    assert main([str(data)]) == 0
    out = capsys.readouterr().out
    assert "2024-05" in out
    assert "over budget: groceries by 50" in out
    assert "warning: you spent more than you earned" in out


def test_cli_usage():
    assert main([]) == 2
