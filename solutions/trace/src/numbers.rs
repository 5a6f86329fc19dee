//! A number the book prints, written in a language's convention.
//!
//! The problem: the recorders and measurement runs write numbers the
//! English way ("1,352,078", "1.85"), and a Russian reader takes "2,095"
//! for a decimal: Russian groups thousands with a thin space and writes a
//! decimal comma ("2 095", "1,85"). Japanese and Chinese books write
//! numbers as English does. A sentence's numbers are the catalogue's
//! business (its translator places each placeholder and its separators);
//! this is for a number that stands alone, a table cell. The state: none.
//! The cost: one pass over the cell.

use crate::separated_with;

/// The narrow no-break space: the thin space Russian puts between
/// thousands, which never lets a number break across lines.
pub const THIN_SPACE: char = '\u{202f}';

/// How `lang` (a book language code: "ru", "ja", "zh-CN") writes the
/// thousands separator and the decimal mark.
pub fn marks(lang: &str) -> (char, char) {
    match lang {
        "ru" => (THIN_SPACE, ','),
        _ => (',', '.'),
    }
}

/// A unit of time a measurement cell may follow its number with, and how
/// `lang` writes it.
fn unit(unit: &str, lang: &str) -> Option<&'static str> {
    const UNITS: [(&str, &str); 4] = [("s", "с"), ("ms", "мс"), ("µs", "мкс"), ("ns", "нс")];
    let (english, russian) = UNITS.into_iter().find(|(e, _)| *e == unit)?;
    Some(if lang == "ru" { russian } else { english })
}

/// `text`, when it is one number the English way (digits grouped by
/// commas, an optional fraction, an optional exponent: "1,716", "1.85",
/// "4.74e-5"), perhaps with a unit of time ("4.150 s"), in `lang`'s
/// convention; `None` for anything else, which a caller leaves as it is.
pub fn in_language(text: &str, lang: &str) -> Option<String> {
    if let Some((number, suffix)) = text.split_once(' ') {
        return Some(format!("{} {}", bare(number, lang)?, unit(suffix, lang)?));
    }
    bare(text, lang)
}

/// [`in_language`] for a number alone.
fn bare(text: &str, lang: &str) -> Option<String> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(k) => (&text[..k], Some(&text[k..])),
        None => (text, None),
    };
    if let Some(e) = exponent {
        let digits = e[1..].strip_prefix('-').unwrap_or(&e[1..]);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    if fraction.is_some_and(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let digits: String = whole.chars().filter(|&c| c != ',').collect();
    // The commas must be the English grouping, or this is no number (a
    // pair "3,4" stays as it is).
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (whole.contains(',') && crate::separated(&digits) != whole)
    {
        return None;
    }
    let (thousands, point) = marks(lang);
    let mut out = if whole.contains(',') {
        separated_with(&digits, thousands)
    } else {
        digits
    };
    if let Some(f) = fraction {
        out.push(point);
        out.push_str(f);
    }
    out.push_str(exponent.unwrap_or(""));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_groups_thousands_with_a_thin_space_and_writes_a_decimal_comma() {
        assert_eq!(
            in_language("1,352,078", "ru").as_deref(),
            Some("1\u{202f}352\u{202f}078")
        );
        assert_eq!(in_language("1.85", "ru").as_deref(), Some("1,85"));
        assert_eq!(in_language("4.74e-5", "ru").as_deref(), Some("4,74e-5"));
        assert_eq!(in_language("132", "ru").as_deref(), Some("132"));
        assert_eq!(in_language("4.150 s", "ru").as_deref(), Some("4,150 с"));
        assert_eq!(in_language("0.054 ms", "ja").as_deref(), Some("0.054 ms"));
    }

    #[test]
    fn japanese_and_chinese_write_numbers_as_english_does() {
        for lang in ["ja", "zh-CN", "en"] {
            assert_eq!(in_language("1,352,078", lang).as_deref(), Some("1,352,078"));
            assert_eq!(in_language("1.85", lang).as_deref(), Some("1.85"));
        }
    }

    #[test]
    fn anything_but_one_english_number_is_left_alone() {
        for text in [
            "3,4", "2, 3", "12,34", "n = 8", "1.", "e5", "1.2.3", "", "1.5e", "x1",
        ] {
            assert_eq!(in_language(text, "ru"), None, "{text:?}");
        }
    }
}
