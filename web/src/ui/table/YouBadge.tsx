// The mark of the signed-in player's own seat and bets: an element of its own, styled as no name
// can be, never text after a name, since a name is whatever another player's provider let them
// choose ("eve (you)" must not pass for eve's own seat). Its row also says so to assistive technology
// (aria-current), which reads the badge's text as any other.
export function YouBadge() {
  return (
    <span class="badge badge--you" data-testid="you">
      You
    </span>
  );
}
