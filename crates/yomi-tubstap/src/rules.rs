//! The platform's rule tables (rule set 0100, TUBSTAP v1.08): units, attack power, terrain
//! move costs and defence stars, and the integer damage formula.
//!
//! Unit order everywhere is the platform's: F A P U R I.

use std::fmt;

/// One of the six unit kinds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum UnitKind {
    /// Fighter (F): air, moves 9, attacks air units only.
    Fighter = 0,
    /// Attacker (A): air, moves 7, attacks ground units.
    Attacker = 1,
    /// Panzer (P; the paper's tank "T"): moves 6.
    Panzer = 2,
    /// Self-propelled cannon (U): moves 5, indirect fire at distance 2–3 without moving.
    Cannon = 3,
    /// Anti-air tank (R): moves 6, strong against air and infantry.
    AntiAir = 4,
    /// Infantry (I): moves 3, may climb mountains.
    Infantry = 5,
}

impl UnitKind {
    /// All kinds in the platform's order.
    pub const ALL: [UnitKind; 6] = [
        UnitKind::Fighter,
        UnitKind::Attacker,
        UnitKind::Panzer,
        UnitKind::Cannon,
        UnitKind::AntiAir,
        UnitKind::Infantry,
    ];

    /// The kind with index `i` (0..6), in the platform's order.
    pub fn from_index(i: usize) -> Option<UnitKind> {
        Self::ALL.get(i).copied()
    }

    /// Index in the platform's order (F=0 .. I=5).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The name used in map files (`fighter`, `attacker`, `panzer`, `cannon`, `antiair`,
    /// `infantry`).
    pub const fn file_name(self) -> &'static str {
        [
            "fighter", "attacker", "panzer", "cannon", "antiair", "infantry",
        ][self as usize]
    }

    /// The kind named `name` in map files.
    pub fn from_file_name(name: &str) -> Option<UnitKind> {
        Self::ALL.into_iter().find(|k| k.file_name() == name)
    }

    /// The platform's one-letter mark (F A P U R I).
    pub const fn letter(self) -> char {
        ['F', 'A', 'P', 'U', 'R', 'I'][self as usize]
    }

    /// The kind whose mark is `c` (either case; `T`, the paper's tank, reads as P).
    pub fn from_letter(c: char) -> Option<UnitKind> {
        match c.to_ascii_uppercase() {
            'F' => Some(UnitKind::Fighter),
            'A' => Some(UnitKind::Attacker),
            'P' | 'T' => Some(UnitKind::Panzer),
            'U' => Some(UnitKind::Cannon),
            'R' => Some(UnitKind::AntiAir),
            'I' => Some(UnitKind::Infantry),
            _ => None,
        }
    }

    /// Move points per action.
    #[inline]
    pub const fn move_points(self) -> u8 {
        [9, 7, 6, 5, 6, 3][self as usize]
    }

    /// Smallest attack distance (Manhattan): 1 for direct units, 2 for the cannon.
    #[inline]
    pub const fn min_range(self) -> u8 {
        if self.is_direct() {
            1
        } else {
            2
        }
    }

    /// Largest attack distance (Manhattan): 1 for direct units, 3 for the cannon.
    #[inline]
    pub const fn max_range(self) -> u8 {
        if self.is_direct() {
            1
        } else {
            3
        }
    }

    /// True for direct (melee) units: everything but the cannon. Direct units may move and
    /// then attack; they counter-attack direct attackers.
    #[inline]
    pub const fn is_direct(self) -> bool {
        !matches!(self, UnitKind::Cannon)
    }

    /// True for air units (fighter, attacker): as targets they get no terrain defence.
    #[inline]
    pub const fn is_air(self) -> bool {
        matches!(self, UnitKind::Fighter | UnitKind::Attacker)
    }

    /// Attack power of `self` against `target` (the platform's table, row attacks column).
    #[inline]
    pub const fn power(self, target: UnitKind) -> u32 {
        ATTACK_POWER[self as usize][target as usize]
    }

    /// Move cost of entering `terrain`, or `None` when impassable.
    #[inline]
    pub const fn cost(self, terrain: Terrain) -> Option<u8> {
        let c = MOVE_COST[self as usize][terrain as usize];
        if c == IMPASSABLE {
            None
        } else {
            Some(c)
        }
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.file_name())
    }
}

/// Attack power, row attacks column, order F A P U R I.
pub const ATTACK_POWER: [[u32; 6]; 6] = [
    [55, 65, 0, 0, 0, 0],
    [0, 0, 105, 105, 85, 115],
    [0, 0, 55, 70, 75, 75],
    [0, 0, 60, 75, 65, 90],
    [70, 70, 15, 50, 45, 105],
    [0, 0, 5, 10, 3, 55],
];

/// Marks an impassable entry of [`MOVE_COST`].
pub const IMPASSABLE: u8 = 99;

/// Move cost per unit (rows F A P U R I) and terrain (columns in [`Terrain`] code order).
pub const MOVE_COST: [[u8; 7]; 6] = [
    [IMPASSABLE, 1, 1, 1, 1, 1, 1],
    [IMPASSABLE, 1, 1, 1, 1, 1, 1],
    [IMPASSABLE, 1, IMPASSABLE, 2, IMPASSABLE, 1, 1],
    [IMPASSABLE, 1, IMPASSABLE, 2, IMPASSABLE, 1, 1],
    [IMPASSABLE, 1, IMPASSABLE, 2, IMPASSABLE, 1, 1],
    [IMPASSABLE, 1, IMPASSABLE, 1, 2, 1, 1],
];

/// A map cell's terrain, numbered by its map-file code.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Terrain {
    /// 0: no entry (also the border ring).
    NoEntry = 0,
    /// 1: plain, 1 star.
    Plain = 1,
    /// 2: sea, 0 stars, air units only.
    Sea = 2,
    /// 3: forest, 3 stars, costs ground vehicles 2.
    Forest = 3,
    /// 4: mountain, 4 stars, air and infantry only (infantry pays 2).
    Mountain = 4,
    /// 5: road, 0 stars.
    Road = 5,
    /// 6: fortress, 4 stars.
    Fortress = 6,
}

impl Terrain {
    /// All terrains in code order.
    pub const ALL: [Terrain; 7] = [
        Terrain::NoEntry,
        Terrain::Plain,
        Terrain::Sea,
        Terrain::Forest,
        Terrain::Mountain,
        Terrain::Road,
        Terrain::Fortress,
    ];

    /// The terrain with map-file code `code`.
    pub fn from_code(code: u32) -> Option<Terrain> {
        Self::ALL.get(code as usize).copied()
    }

    /// The map-file code.
    #[inline]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Defence stars of a ground unit standing here.
    #[inline]
    pub const fn stars(self) -> u32 {
        [0, 1, 0, 3, 4, 0, 4][self as usize]
    }

    /// One character for board pictures.
    pub const fn symbol(self) -> char {
        [' ', '.', '~', 'f', '^', '=', '#'][self as usize]
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        [
            "no entry", "plain", "sea", "forest", "mountain", "road", "fortress",
        ][self as usize]
    }
}

/// Damage `attacker` (with `attacker_hp`) deals to `target` (with `target_hp`) standing on
/// `target_terrain`: `min(target_hp, ⌊(power·attacker_hp + 70) / (100 + stars·target_hp)⌋)`,
/// where air targets always get 0 stars.
///
/// ```
/// use yomi_tubstap::{damage, Terrain, UnitKind::Panzer};
/// assert_eq!(damage(Panzer, 10, Panzer, 10, Terrain::Plain), 5);
/// ```
#[inline]
pub fn damage(
    attacker: UnitKind,
    attacker_hp: u8,
    target: UnitKind,
    target_hp: u8,
    target_terrain: Terrain,
) -> u8 {
    let stars = if target.is_air() {
        0
    } else {
        target_terrain.stars()
    };
    damage_with_stars(attacker, attacker_hp, target, target_hp, stars)
}

/// [`damage`] with the target's defence stars given directly (0 for air targets is the
/// caller's business).
#[inline]
pub fn damage_with_stars(
    attacker: UnitKind,
    attacker_hp: u8,
    target: UnitKind,
    target_hp: u8,
    stars: u32,
) -> u8 {
    let raw = (attacker.power(target) * attacker_hp as u32 + 70) / (100 + stars * target_hp as u32);
    raw.min(target_hp as u32) as u8
}

/// The two damages of one attack: what the attacker deals, and the counter-attack it takes
/// (0 unless the target survives and both units are direct). The counter uses the target's
/// remaining HP and the stars of the attacker's square.
///
/// ```
/// use yomi_tubstap::{combat, Terrain::Plain, UnitKind::Panzer};
/// // The rules page's example: P(10) attacks P(10) on plain: 5 damage, 3 back.
/// assert_eq!(combat(Panzer, 10, Plain, Panzer, 10, Plain), (5, 3));
/// ```
pub fn combat(
    attacker: UnitKind,
    attacker_hp: u8,
    attacker_terrain: Terrain,
    target: UnitKind,
    target_hp: u8,
    target_terrain: Terrain,
) -> (u8, u8) {
    let dealt = damage(attacker, attacker_hp, target, target_hp, target_terrain);
    let left = target_hp - dealt;
    let back = if left > 0 && attacker.is_direct() && target.is_direct() {
        damage(target, left, attacker, attacker_hp, attacker_terrain)
    } else {
        0
    };
    (dealt, back)
}
