//! Tabulates the HarLog material score of every pair of material signatures at compile time
//! (`OUT_DIR/material_table.bin`, read by `src/material.rs` with `include_bytes!`), so no search
//! pays for building it.

#![allow(dead_code)]

include!("src/harlog.rs");

fn main() {
    println!("cargo:rerun-if-changed=src/harlog.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let mut bytes = Vec::with_capacity(SIGNATURES * SIGNATURES * 2);
    for g in 0..SIGNATURES {
        for s in 0..SIGNATURES {
            let v = harlog_score(g, s);
            let v = i16::try_from(v).expect("material scores fit in i16");
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("material_table.bin"), bytes).expect("write the material table");
}
