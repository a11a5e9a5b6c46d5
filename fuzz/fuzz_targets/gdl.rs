//! GDL / KIF rule sheets: `yomi_ggp::parse`, the printer round trip (`RuleSheet::to_kif`
//! reads back to the same text) and validation (`Description::from_sheet`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(sheet) = yomi_ggp::parse(text) else { return };
    let kif = sheet.to_kif();
    let again = yomi_ggp::parse(&kif)
        .unwrap_or_else(|e| panic!("printed rule sheet does not parse: {e}\n{kif}"));
    assert_eq!(again.to_kif(), kif, "print -> parse -> print changed the rule sheet");
    let _ = yomi_ggp::Description::from_sheet(sheet);
});
