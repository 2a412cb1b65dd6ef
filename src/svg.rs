//! Small SVG drawings for the site and the simulator, as text: every picture has a `<title>` and a `<desc>` (its
//! text fallback, read by screen readers and shown where SVG is not), scales with its container
//! (a `viewBox`, no fixed size), and uses only the page's own CSS classes (no external resource).

use std::fmt::Write as _;

/// Escapes text for XML (element content and attribute values alike).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A picture being drawn: `width` × `height` user units, elements appended to `body`.
pub struct Picture {
    id: String,
    title: String,
    desc: String,
    width: u32,
    height: u32,
    body: String,
}

impl Picture {
    /// `id` must be unique on its page.
    pub fn new(id: &str, title: &str, desc: &str, width: u32, height: u32) -> Picture {
        Picture {
            id: id.to_owned(),
            title: title.to_owned(),
            desc: desc.to_owned(),
            width,
            height,
            body: String::new(),
        }
    }

    /// Replaces the description (for a picture described as it is drawn).
    pub fn describe(&mut self, desc: &str) {
        self.desc = desc.to_owned();
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, class: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" class="{class}"/>"#
        );
    }

    /// Text anchored at its start (`anchor` "start"), middle or end.
    pub fn text(&mut self, x: f64, y: f64, anchor: &str, class: &str, text: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" class="{class}">{}</text>"#,
            escape(text)
        );
    }

    pub fn line(&mut self, from: (f64, f64), to: (f64, f64), class: &str) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" class="{class}"/>"#,
            from.0, from.1, to.0, to.1
        );
    }

    pub fn polyline(&mut self, points: &[(f64, f64)], class: &str) {
        let points: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polyline points="{}" fill="none" class="{class}"/>"#,
            points.join(" ")
        );
    }

    pub fn circle(&mut self, x: f64, y: f64, r: f64, class: &str) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" class="{class}"/>"#
        );
    }

    pub fn finish(self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" role=\"img\" \
             aria-label=\"{title}\" id=\"{id}\" class=\"picture\">\n\
             <title>{title}</title>\n<desc>{desc}</desc>\n{body}</svg>",
            id = escape(&self.id),
            w = self.width,
            h = self.height,
            title = escape(&self.title),
            desc = escape(&self.desc),
            body = self.body,
        )
    }
}

/// One bar of a bar chart: its label, its value, and the CSS class it is drawn with.
pub struct Bar {
    pub label: String,
    pub value: i64,
    pub class: String,
}

/// Horizontal bars, one row each (readable on a phone: labels left, values right).
pub fn bar_chart(id: &str, title: &str, bars: &[Bar]) -> String {
    const ROW: f64 = 28.0;
    const LABEL: f64 = 150.0;
    const WIDTH: f64 = 600.0;
    let max = bars.iter().map(|b| b.value).max().unwrap_or(0).max(1) as f64;
    let desc = bars
        .iter()
        .map(|b| format!("{}: {}", b.label, b.value))
        .collect::<Vec<_>>()
        .join("; ");
    let height = (bars.len() as f64 * ROW + 10.0).ceil() as u32;
    let mut p = Picture::new(id, title, &desc, WIDTH as u32, height.max(20));
    let span = WIDTH - LABEL - 60.0;
    for (i, bar) in bars.iter().enumerate() {
        let y = 5.0 + i as f64 * ROW;
        p.text(LABEL - 8.0, y + 18.0, "end", "label", &bar.label);
        let w = (bar.value.max(0) as f64 / max * span).max(1.0);
        p.rect(LABEL, y + 4.0, w, ROW - 8.0, &format!("bar {}", bar.class));
        p.text(
            LABEL + w + 6.0,
            y + 18.0,
            "start",
            "value",
            &bar.value.to_string(),
        );
    }
    p.finish()
}

/// One line of a line chart: its label, class, and a value per x position (`None`: no point).
pub struct Series {
    pub label: String,
    pub class: String,
    pub values: Vec<Option<i64>>,
}

/// Lines over x positions labelled `xs`, with a legend below.
pub fn line_chart(id: &str, title: &str, axis: &str, xs: &[String], series: &[Series]) -> String {
    const WIDTH: f64 = 600.0;
    const PLOT_H: f64 = 220.0;
    const LEFT: f64 = 40.0;
    const TOP: f64 = 10.0;
    let max = series
        .iter()
        .flat_map(|s| s.values.iter().flatten())
        .copied()
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let desc = series
        .iter()
        .map(|s| {
            let values: Vec<String> = s
                .values
                .iter()
                .map(|v| v.map_or("-".into(), |v| v.to_string()))
                .collect();
            format!("{}: {}", s.label, values.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ");
    let legend_rows = series.len().div_ceil(3);
    let height = TOP + PLOT_H + 40.0 + legend_rows as f64 * 24.0;
    let mut p = Picture::new(
        id,
        title,
        &format!("{axis}. {desc}"),
        WIDTH as u32,
        height as u32,
    );
    let span = WIDTH - LEFT - 20.0;
    let x_at = |i: usize| LEFT + 10.0 + span * i as f64 / (xs.len().max(2) - 1) as f64;
    let y_at = |v: i64| TOP + PLOT_H - v as f64 / max * PLOT_H;
    p.line((LEFT, TOP), (LEFT, TOP + PLOT_H), "axis");
    p.line((LEFT, TOP + PLOT_H), (WIDTH - 10.0, TOP + PLOT_H), "axis");
    p.text(
        LEFT - 6.0,
        TOP + 12.0,
        "end",
        "value",
        &(max as i64).to_string(),
    );
    p.text(LEFT - 6.0, TOP + PLOT_H, "end", "value", "0");
    for (i, x) in xs.iter().enumerate() {
        p.text(x_at(i), TOP + PLOT_H + 18.0, "middle", "value", x);
    }
    for s in series {
        let points: Vec<(f64, f64)> = s
            .values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| (x_at(i), y_at(v))))
            .collect();
        p.polyline(&points, &format!("series {}", s.class));
        for (x, y) in &points {
            p.circle(*x, *y, 4.0, &format!("dot {}", s.class));
        }
    }
    for (i, s) in series.iter().enumerate() {
        let x = LEFT + (i % 3) as f64 * 180.0;
        let y = TOP + PLOT_H + 40.0 + (i / 3) as f64 * 24.0;
        p.rect(x, y - 11.0, 14.0, 14.0, &format!("bar {}", s.class));
        p.text(x + 20.0, y, "start", "label", &s.label);
    }
    p.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_everywhere() {
        let svg = bar_chart(
            "c",
            "A <b> & \"c\"",
            &[Bar {
                label: "<script>".into(),
                value: 3,
                class: "x".into(),
            }],
        );
        assert!(!svg.contains("<script>"));
        assert!(!svg.contains("<b>"));
        assert!(svg.contains("&lt;script&gt;"));
        assert!(svg.contains("<title>A &lt;b&gt; &amp; &quot;c&quot;</title>"));
    }

    #[test]
    fn the_longest_bar_spans_the_chart_and_the_description_lists_every_value() {
        let bars = [("a", 2), ("b", 4), ("c", 0)].map(|(l, v)| Bar {
            label: l.into(),
            value: v,
            class: String::new(),
        });
        let svg = bar_chart("c", "t", &bars);
        assert!(svg.contains("<desc>a: 2; b: 4; c: 0</desc>"));
        assert!(svg.contains("width=\"390.0\""), "{svg}");
        assert!(svg.contains("width=\"195.0\""), "{svg}");
    }

    #[test]
    fn a_line_chart_has_a_point_per_known_value() {
        let svg = line_chart(
            "l",
            "t",
            "spaces by round",
            &["1".into(), "2".into(), "3".into()],
            &[Series {
                label: "red".into(),
                class: "red".into(),
                values: vec![Some(1), None, Some(3)],
            }],
        );
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("red: 1, -, 3"));
    }
}
