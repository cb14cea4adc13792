//! `completions`: the bash script, loaded in a real bash, completes the commands, the flags
//! of a command and the values of a flag as a user pressing Tab would see them; the other
//! shells' scripts name every command.

use crate::common::{run, stderr, stdout};

/// What bash offers for the words `line` (the last one being completed), with the script
/// `toritsume completions bash` prints loaded.
fn bash_completes(line: &[&str]) -> Vec<String> {
    let script = stdout(&run(&["completions", "bash"]));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("toritsume.bash");
    std::fs::write(&path, script).expect("the script written");
    let words: Vec<String> = line.iter().map(|w| format!("'{w}'")).collect();
    let n = line.len();
    let cur = line[n - 1];
    let prev = line[n - 2];
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={}\n_toritsume toritsume '{cur}' '{prev}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        path.display(),
        words.join(" "),
        n - 1
    );
    let out = std::process::Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .current_dir(dir.path())
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "bash: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_commands_flags_and_their_values() {
    assert_eq!(bash_completes(&["toritsume", "so"]), ["solve"]);
    assert_eq!(bash_completes(&["toritsume", "ver"]), ["verify"]);
    assert_eq!(bash_completes(&["toritsume", "solve", "--ha"]), ["--hash"]);
    assert_eq!(
        bash_completes(&["toritsume", "book", "--inter"]),
        ["--interactive"]
    );
    assert_eq!(
        bash_completes(&["toritsume", "export", "--format", ""]),
        ["pychess", "csv", "epd", "sfen", "all"]
    );
    assert_eq!(
        bash_completes(&["toritsume", "generate", "--final-duals", ""]),
        ["allow", "forbid"]
    );
}

#[test]
fn every_shell_gets_a_script_naming_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        for command in [
            "show",
            "perft",
            "solve",
            "verify",
            "generate",
            "merge",
            "stats",
            "usi",
            "diagram",
            "book",
            "editor",
            "export",
            "bench",
            "completions",
        ] {
            assert!(
                script.contains(command),
                "{shell}'s script lacks `{command}`"
            );
        }
    }
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("possible values: bash"),
        "{}",
        stderr(&out)
    );
}
