//! The article graph: titles, texts and resolved links, read once from a host dataset.

use geode_sdk::Error;
use serde_json::{Map, Value};
use std::collections::{HashMap, VecDeque};

/// Every article of a dataset, addressed by its row position.
#[derive(Debug, Default)]
pub struct Graph {
    titles: Vec<String>,
    texts: Vec<String>,
    links: Vec<Vec<usize>>,
}

impl Graph {
    /// Reads every row of host dataset `name` (see [`Graph::from_rows`] for the row format).
    pub fn load(name: &str) -> Result<Graph, Error> {
        let count = geode_sdk::dataset::len(name)?;
        let rows = (0..count)
            .map(|index| geode_sdk::dataset::row(name, index))
            .collect::<Result<Vec<_>, _>>()?;
        Graph::from_rows(name, rows)
    }

    /// Builds the graph from rows `{"title": str, "text": str, "links": [str]}` (`text` and
    /// `links` may be missing). A repeated title keeps its first row; links to titles no row has
    /// are dropped, as are repeats within one page.
    pub fn from_rows(name: &str, rows: Vec<Map<String, Value>>) -> Result<Graph, Error> {
        let mut graph = Graph::default();
        let mut index = HashMap::new();
        let mut pending = Vec::new();
        for (number, row) in rows.into_iter().enumerate() {
            let bad =
                |what: &str| Error::Internal(format!("row {number} of dataset `{name}`: {what}"));
            let title = match row.get("title") {
                Some(Value::String(t)) if !t.is_empty() => t.clone(),
                _ => return Err(bad("no non-empty string `title`")),
            };
            if index.contains_key(&title) {
                continue;
            }
            let text = match row.get("text") {
                None | Some(Value::Null) => String::new(),
                Some(Value::String(t)) => t.clone(),
                Some(_) => return Err(bad("`text` is not a string")),
            };
            let links: Vec<String> = match row.get("links") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|l| l.as_str().map(str::to_owned))
                    .collect::<Option<_>>()
                    .ok_or_else(|| bad("`links` holds a non-string"))?,
                Some(_) => return Err(bad("`links` is not a list")),
            };
            index.insert(title.clone(), graph.titles.len());
            graph.titles.push(title);
            graph.texts.push(text);
            pending.push(links);
        }
        graph.links = pending
            .into_iter()
            .map(|names| {
                let mut resolved: Vec<usize> = Vec::with_capacity(names.len());
                for id in names.iter().filter_map(|n| index.get(n).copied()) {
                    if !resolved.contains(&id) {
                        resolved.push(id);
                    }
                }
                resolved
            })
            .collect();
        Ok(graph)
    }

    /// Number of articles.
    pub fn len(&self) -> usize {
        self.titles.len()
    }

    /// The title of article `id`.
    pub fn title(&self, id: usize) -> &str {
        &self.titles[id]
    }

    /// The text of article `id`.
    pub fn text(&self, id: usize) -> &str {
        &self.texts[id]
    }

    /// The articles article `id` links to, in page order.
    pub fn links(&self, id: usize) -> &[usize] {
        &self.links[id]
    }

    /// The number of clicks from `start` to every article (`None` where unreachable).
    pub fn distances(&self, start: usize) -> Vec<Option<usize>> {
        let mut distance = vec![None; self.len()];
        distance[start] = Some(0);
        let mut queue = VecDeque::from([start]);
        while let Some(page) = queue.pop_front() {
            let next = distance[page].map(|d| d + 1);
            for &link in self.links(page) {
                if distance[link].is_none() {
                    distance[link] = next;
                    queue.push_back(link);
                }
            }
        }
        distance
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    /// A graph from `(title, text, links)` triples.
    pub fn graph(pages: &[(&str, &str, &[&str])]) -> Graph {
        let rows = pages
            .iter()
            .map(|(title, text, links)| {
                let row = json!({ "title": title, "text": text, "links": links });
                row.as_object().unwrap().clone()
            })
            .collect();
        Graph::from_rows("test", rows).unwrap()
    }

    #[test]
    fn resolves_links_and_drops_unknown_and_repeated_ones() {
        let g = graph(&[
            ("A", "first", &["B", "Nowhere", "B", "C"]),
            ("B", "second", &[]),
            ("C", "third", &["A"]),
            ("A", "shadowed", &["C"]),
        ]);
        assert_eq!(g.len(), 3);
        assert_eq!(g.links(0), &[1, 2]);
        assert_eq!(g.text(0), "first");
        assert_eq!(g.distances(2), vec![Some(1), Some(2), Some(0)]);
        assert_eq!(g.distances(1), vec![None, Some(0), None]);
    }

    #[test]
    fn rejects_rows_without_a_title() {
        let rows = vec![json!({ "text": "x" }).as_object().unwrap().clone()];
        let err = Graph::from_rows("d", rows).unwrap_err();
        assert!(err.to_string().contains("row 0 of dataset `d`"), "{err}");
        let rows = vec![
            json!({ "title": "x", "links": "y" })
                .as_object()
                .unwrap()
                .clone(),
        ];
        assert!(Graph::from_rows("d", rows).is_err());
    }
}
