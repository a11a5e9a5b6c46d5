//! A small GTP engine over standard input and output: `yomi-go-gtp [--agent SPEC]
//! [--seed N] [--size N] [--komi K]`. The full CLI has the same engine as `yomi go gtp`;
//! this binary exists so that `yomi-go`'s own tests (the match runner's) and scripts can
//! run yomi as a GTP child process without building the CLI crate.

use std::io::{stdin, stdout, BufReader, BufWriter};
use std::process::ExitCode;

use yomi_go::gtp::{GtpConfig, GtpEngine};

fn main() -> ExitCode {
    let mut cfg = GtpConfig::default();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let Some(value) = args.next() else {
            eprintln!("{flag} needs a value");
            return ExitCode::from(2);
        };
        let ok = match flag.as_str() {
            "--agent" => {
                cfg.agent = value.clone();
                true
            }
            "--seed" => value.parse().map(|v| cfg.seed = v).is_ok(),
            "--size" => value.parse().map(|v| cfg.size = v).is_ok(),
            "--komi" => value.parse().map(|v| cfg.komi = v).is_ok(),
            _ => {
                eprintln!("unknown option {flag} (expected --agent, --seed, --size, --komi)");
                return ExitCode::from(2);
            }
        };
        if !ok {
            eprintln!("{flag} {value}: not a valid value");
            return ExitCode::from(2);
        }
    }
    let mut engine = match GtpEngine::new(cfg) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match engine.run(BufReader::new(stdin()), BufWriter::new(stdout().lock())) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
