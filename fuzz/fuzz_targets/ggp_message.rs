//! GGP match-protocol messages (`info`, `preview`, `start`, `play`, `stop`, `abort`):
//! `Message::from_str`, and printing a parsed message reads back to the same message.
#![no_main]
use libfuzzer_sys::fuzz_target;
use yomi_ggp::protocol::Message;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(msg) = text.parse::<Message>() else { return };
    let printed = msg.to_string();
    let again: Message = printed
        .parse()
        .unwrap_or_else(|e| panic!("printed message does not parse: {e}\n{printed}"));
    assert_eq!(again.to_string(), printed, "print -> parse -> print changed the message");
});
