import { useId, type ReactNode } from 'react';

interface CountedSectionProps {
  title: string;
  count: number;
  /** Buttons at the heading's end. */
  actions: ReactNode;
  children: ReactNode;
}

/** A card whose heading reads "Title (count)", with actions beside it: the Selected Files and the queue. */
export function CountedSection({ title, count, actions, children }: CountedSectionProps) {
  const headingId = useId();
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="section-head">
        <h2 id={headingId}>
          {title} <span className="count">({count})</span>
        </h2>
        <div className="section-head__actions">{actions}</div>
      </div>
      {children}
    </section>
  );
}
