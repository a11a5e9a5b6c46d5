//! The page's files, embedded in the binary at build time (`include_str!`): no build step,
//! no install, nothing fetched at run time.

/// The page.
pub const INDEX: &str = include_str!("../assets/index.html");

/// Every file under `/assets/`: name, MIME type and contents.
pub const FILES: &[(&str, &str, &str)] = &[
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "boards.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/boards.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
];

/// The MIME type and contents of asset `name`.
pub fn get(name: &str) -> Option<(&'static str, &'static str)> {
    FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, mime, body)| (*mime, *body))
}
