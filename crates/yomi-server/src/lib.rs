//! # yomi-server
//!
//! The web board behind `yomi serve`: play, watch, replay and analyse every yomi game in
//! the browser. One axum router serves the page (HTML, ES modules and CSS embedded in the
//! binary, nothing fetched from elsewhere), a small JSON API (`/api/games`, `/api/game`,
//! `/api/records`) and the WebSocket of live play (`/ws`, see [`protocol`]).
//!
//! - [`protocol`]: the typed JSON messages and their size limits;
//! - [`session`]: one page's game (positions, seats, agents thinking on the blocking pool);
//! - [`view`]: the structured board each renderer draws, read from the games' notations;
//! - [`server`]: routes, the WebSocket loop, games held for reloads, the records file.
//!
//! Games and agents come through `yomi-games` (the one parser of game names and agent
//! specs); finished games are appended to `<records>/yomi-serve.jsonl` in the arena's
//! record format, and records files are read with [`yomi_core::arena::read_records`].
//!
//! ```no_run
//! # async fn run() -> anyhow::Result<()> {
//! let (addr, task) = yomi_server::start("127.0.0.1", 0, Default::default()).await?;
//! println!("http://{addr}/");
//! task.await?;
//! # Ok(()) }
//! ```

pub mod assets;
pub mod protocol;
pub mod server;
pub mod session;
pub mod view;

pub use server::{router, start, App, ServeConfig};

/// Runs the server on `host:port` until the process is stopped, printing its address.
///
/// # Errors
/// When the address cannot be bound or the records directory cannot be opened.
pub fn serve_blocking(host: &str, port: u16, config: ServeConfig) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let (addr, task) = start(host, port, config).await?;
        println!("yomi serve: http://{addr}/  (Ctrl-C stops)");
        task.await?;
        Ok(())
    })
}
